import { loadState, type CommandContext } from '../../../commands/command-handler.js'
import type { DecodedEvent } from '../../../commands/event-store/decode.js'
import type { EventStore } from '../../../commands/event-store/port.js'
import { sandbox } from '../../../domain/sandbox/sandbox.js'
import { DomainError } from '../../../domain/shared/errors.js'

/** A command caused by an event: its correlation carries over, so the log shows why an insight was raised. */
export function causedBy(actorId: string, event: DecodedEvent): CommandContext {
  return {
    actor: { kind: 'system', id: actorId },
    requestId: null,
    correlationId: event.metadata.correlation_id ?? event.id,
    causationId: event.id,
  }
}

/**
 * Whether the event is about the public sandbox: its insights and meta optimizations are fiction the seeder
 * writes whole (ops/sandbox/seed-search-insights.ts), so the processors leave them alone (no refresh racing
 * the seed, no model call spent on fiction), as the rank scheduler and the metrics pass do.
 */
export async function aboutSandbox(store: EventStore, event: DecodedEvent): Promise<boolean> {
  if (event.metadata.actor?.kind === 'system' && event.metadata.actor.id === 'sandbox') return true
  const sandboxOrg = (await loadState(store, sandbox, null)).orgId
  return sandboxOrg !== null && event.metadata.org_id === sandboxOrg
}

/**
 * Whether a failure is the record's answer rather than the system's: a client deleted since, a record
 * gone. Such an event has nothing left to do; retrying it would loop forever. Anything else (the database,
 * the read models lagging) is thrown, and the subscription handles the event again.
 */
export const isSettledRefusal = (error: unknown): error is DomainError => error instanceof DomainError
