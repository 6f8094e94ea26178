import { randomUUID } from 'node:crypto'
import { fold, type Aggregate } from '../domain/shared/aggregate.js'
import type { Actor, DomainEvent, EventMetadata } from '../domain/shared/event.js'
import { CURRENT_SCHEMA_VERSION, eventSchemas } from '../domain/events.js'
import { WrongExpectedRevisionError, type EventStore, type Position } from './event-store/port.js'
import type { IdAllocator } from './ids.js'

/** An aggregate's state, folded from every event of its stream (an empty stream: the initial state). */
export async function loadState<TState, TEvent extends DomainEvent>(
  store: EventStore,
  aggregate: Pick<Aggregate<TState, never, TEvent>, 'initialState' | 'evolve'>,
  stream: string,
): Promise<TState> {
  const events: TEvent[] = []
  for await (const recorded of store.readStream(stream)) events.push({ type: recorded.type, data: recorded.data } as TEvent)
  return fold(aggregate, events)
}

/** What every write needs from the outside world: the log, id sequences and the clock. */
export interface WriteDeps {
  readonly store: EventStore
  readonly ids: IdAllocator
  readonly clock: () => Date
}

/** Who acts and why, copied into every event's metadata. */
export interface CommandContext {
  readonly actor: Actor
  readonly requestId: string | null
  readonly correlationId: string
  readonly causationId: string | null
}

export interface CommandOutcome<TState, TEvent> {
  /** State after the new events. */
  readonly state: TState
  readonly events: readonly TEvent[]
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null
}

export const systemContext = (id: string): CommandContext => ({
  actor: { kind: 'system', id },
  requestId: null,
  correlationId: randomUUID(),
  causationId: null,
})

const MAX_ATTEMPTS = 8

/**
 * Load → decide → append, retrying when another writer appended to the stream in between.
 * Domain errors from `decide` propagate unchanged; events are validated against their schema first.
 */
export async function handleCommand<TState, TCommand, TEvent extends DomainEvent>(
  deps: WriteDeps,
  aggregate: Aggregate<TState, TCommand, TEvent>,
  stream: string,
  command: TCommand,
  context: CommandContext,
  orgOf: (state: TState) => number | null,
): Promise<CommandOutcome<TState, TEvent>> {
  for (let attempt = 1; ; attempt++) {
    let state = aggregate.initialState()
    let revision: bigint | undefined
    for await (const recorded of deps.store.readStream(stream)) {
      state = aggregate.evolve(state, { type: recorded.type, data: recorded.data } as TEvent)
      revision = recorded.revision
    }
    const events = aggregate.decide(command, state)
    if (events.length === 0) return { state, events, position: null }
    let after = state
    for (const event of events) after = aggregate.evolve(after, event)
    const metadata: EventMetadata = {
      org_id: orgOf(after),
      actor: context.actor,
      correlation_id: context.correlationId,
      causation_id: context.causationId,
      request_id: context.requestId,
      occurred_at: deps.clock().toISOString(),
      schema_version: CURRENT_SCHEMA_VERSION,
    }
    const toAppend = events.map((event) => ({
      type: event.type,
      data: validate(event),
      metadata: metadata as unknown as Record<string, unknown>,
    }))
    try {
      const result = await deps.store.append(stream, toAppend, revision ?? 'no_stream')
      return { state: after, events, position: result.position }
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error
    }
  }
}

function validate(event: DomainEvent): unknown {
  const schema = eventSchemas[event.type]
  if (!schema) throw new Error(`No schema registered for event type ${event.type}`)
  return schema.parse(event.data)
}

/**
 * Appends events to an audit stream without loading it (expected revision `any`): for records that decide
 * nothing (an SSO sign-in refusal), so a long trail never slows the write. Validated like every event.
 */
export async function appendAudit(deps: WriteDeps, stream: string, events: readonly DomainEvent[], context: CommandContext, orgId: number | null): Promise<Position> {
  const metadata: EventMetadata = {
    org_id: orgId,
    actor: context.actor,
    correlation_id: context.correlationId,
    causation_id: context.causationId,
    request_id: context.requestId,
    occurred_at: deps.clock().toISOString(),
    schema_version: CURRENT_SCHEMA_VERSION,
  }
  const result = await deps.store.append(
    stream,
    events.map((event) => ({ type: event.type, data: validate(event), metadata: metadata as unknown as Record<string, unknown> })),
    'any',
  )
  return result.position
}
