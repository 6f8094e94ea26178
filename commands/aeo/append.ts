import { CURRENT_SCHEMA_VERSION, eventSchemas } from '../../domain/events.js'
import type { DomainEvent, EventMetadata } from '../../domain/shared/event.js'
import type { CommandContext, WriteDeps } from '../command-handler.js'
import type { AppendResult, ExpectedRevision, NewEvent, RecordedEvent } from '../event-store/port.js'

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

/** Decided events as the store takes them: each validated against its schema, with the metadata every event carries. */
export function toNewEvents(deps: WriteDeps, context: CommandContext, events: readonly DomainEvent[], orgId: number | null): NewEvent[] {
  const metadata: EventMetadata = {
    org_id: orgId,
    actor: context.actor,
    correlation_id: context.correlationId,
    causation_id: context.causationId,
    request_id: context.requestId,
    occurred_at: deps.clock().toISOString(),
    schema_version: CURRENT_SCHEMA_VERSION,
  }
  return events.map((event) => {
    const schema = eventSchemas[event.type]
    if (!schema) throw new Error(`No schema registered for event type ${event.type}`)
    return { type: event.type, data: schema.parse(event.data), metadata: metadata as unknown as Record<string, unknown> }
  })
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
