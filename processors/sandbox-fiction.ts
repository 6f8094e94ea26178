import { loadState } from '../commands/command-handler.js'
import type { DecodedEvent } from '../commands/event-store/decode.js'
import type { EventStore } from '../commands/event-store/port.js'
import { SANDBOX_ACTOR_ID, sandbox } from '../domain/sandbox/sandbox.js'

/**
 * The public sandbox is fiction its seeder writes whole (ops/sandbox/seed.ts): its rank checks, keyword
 * metrics, Search Console captures, intents and insights are seeded as results. A processor that calls a
 * provider or derives data from what the seed wrote leaves it alone, so no provider or model call is spent
 * on fiction, a capture is never failed for want of credentials, and nothing races the seed. The one rule,
 * for every processor that needs it.
 */

/** The sandbox's organization; null before the sandbox is first created. */
export async function sandboxOrgId(store: EventStore): Promise<number | null> {
  return (await loadState(store, sandbox, null)).orgId
}

/** Whether the sandbox seeder wrote the event (it acts as the system actor SANDBOX_ACTOR_ID). */
export const writtenBySandbox = (event: DecodedEvent): boolean =>
  event.metadata.actor?.kind === 'system' && event.metadata.actor.id === SANDBOX_ACTOR_ID

/** Whether the event is the sandbox's: written by its seeder, or in its organization. */
export async function aboutSandbox(store: EventStore, event: DecodedEvent): Promise<boolean> {
  if (writtenBySandbox(event)) return true
  const orgId = await sandboxOrgId(store)
  return orgId !== null && event.metadata.org_id === orgId
}
