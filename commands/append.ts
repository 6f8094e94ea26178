import { schemaOf } from '../domain/events.js'
import type { DomainEvent, EventMetadata } from '../domain/shared/event.js'
import { currentSchemaVersion } from '../domain/upcasters.js'
import type { CommandContext, WriteDeps } from './command-context.js'
import {
  appendEach,
  type AppendResult,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type StreamWriteOutcome,
} from './event-store/port.js'

/**
 * Decided events as the store takes them: each validated against its schema, with the metadata every event
 * carries. The one place that builds them: handleCommand and every helper below go through it, and so do the
 * webhook worker's attempt records.
 */
export function toNewEvents(deps: WriteDeps, context: CommandContext, events: readonly DomainEvent[], orgId: number | null): NewEvent[] {
  const metadata: Omit<EventMetadata, 'schema_version'> = {
    org_id: orgId,
    actor: context.actor,
    correlation_id: context.correlationId,
    causation_id: context.causationId,
    request_id: context.requestId,
    occurred_at: deps.clock().toISOString(),
  }
  return events.map((event) => ({
    type: event.type,
    data: validate(event),
    // Each event carries the version of its own type's schema, the one `validate` checked it against.
    metadata: { ...metadata, schema_version: currentSchemaVersion(event.type) } satisfies EventMetadata as unknown as Record<
      string,
      unknown
    >,
  }))
}

function validate(event: DomainEvent): unknown {
  const schema = schemaOf(event.type)
  if (!schema) throw new Error(`No schema registered for event type ${event.type}`)
  return schema.parse(event.data)
}

/**
 * Appends events to an audit stream without loading it (expected revision `any`): for records that decide
 * nothing (an SSO sign-in refusal), so a long trail never slows the write. Validated like every event.
 */
export async function appendAudit(
  deps: WriteDeps,
  stream: string,
  events: readonly DomainEvent[],
  context: CommandContext,
  orgId: number | null,
): Promise<Position> {
  const result = await deps.store.append(stream, toNewEvents(deps, context, events, orgId), 'any')
  return result.position
}

/**
 * Appends events `decide` produced on a state that needs no read of the stream: the first events of a
 * stream whose id was just allocated (expected `no_stream`), or a seed written in bulk. A conflict throws
 * WrongExpectedRevisionError; nothing retries it, since nothing was read to decide again on.
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

/** One stream's part of appendDecidedEach: events decided on the state at `expected`. */
export interface DecidedWrite {
  readonly stream: string
  readonly events: readonly DomainEvent[]
  readonly expected: ExpectedRevision
  readonly orgId: number | null
}

/**
 * Appends decided events to many streams in one call (EventStore.appendEach: one statement on PostgreSQL),
 * each against the revision its decision was made at: a claim of many runs, decided on the read model's
 * rows. A stream that moved comes back as its WrongExpectedRevisionError (that write lost), never retried.
 */
export function appendDecidedEach(
  deps: WriteDeps,
  context: CommandContext,
  writes: readonly DecidedWrite[],
): Promise<StreamWriteOutcome[]> {
  return appendEach(
    deps.store,
    writes.map((w) => ({ stream: w.stream, events: toNewEvents(deps, context, w.events, w.orgId), expected: w.expected })),
  )
}
