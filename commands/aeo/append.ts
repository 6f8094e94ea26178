import type { DomainEvent } from '../../domain/shared/event.js'
import { toNewEvents, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { AppendResult, ExpectedRevision, RecordedEvent } from '../event-store/port.js'

/**
 * Appends events that `decide` produced, with the metadata every event carries, each validated against its
 * schema first (as handleCommand does). For writes whose expected revision comes from somewhere other than
 * a fresh read of the stream (a claim decided against the read model's revision, say).
 */
export function appendDecided(
  deps: WriteDeps,
  context: CommandContext,
  stream: string,
  events: readonly DomainEvent[],
  expected: ExpectedRevision,
  orgId: number | null,
): Promise<AppendResult> {
  return deps.store.append(stream, toNewEvents(deps, context, events, orgId), expected)
}

/** A stream read whole: its events, the revision of the last one (undefined: no stream) and the org of the first. */
export interface LoadedStream {
  readonly events: readonly RecordedEvent[]
  readonly revision: bigint | undefined
  readonly orgId: number | null
}

export async function loadStream(deps: WriteDeps, stream: string): Promise<LoadedStream> {
  const events: RecordedEvent[] = []
  for await (const event of deps.store.readStream(stream)) events.push(event)
  const last = events.at(-1)
  const org = events[0]?.metadata?.org_id
  return { events, revision: last?.revision, orgId: typeof org === 'number' ? org : null }
}
