import { randomUUID } from 'node:crypto'
import type { Aggregate } from '../domain/shared/aggregate.js'
import type { Actor, DomainEvent, EventMetadata } from '../domain/shared/event.js'
import { schemaOf } from '../domain/events.js'
import { currentSchemaVersion } from '../domain/upcasters.js'
import { WrongExpectedRevisionError, type AppendResult, type EventStore, type NewEvent, type Position } from './event-store/port.js'
import { aggregateStateCacheOf } from './aggregate-state-cache.js'
import type { IdAllocator } from './ids.js'

/**
 * An aggregate's state, folded from every event of its stream (an empty stream: the initial state). Always
 * read to the stream's end, but only from after the revision the store's aggregate state cache holds.
 */
export async function loadState<TState, TEvent extends DomainEvent>(
  store: EventStore,
  aggregate: Pick<Aggregate<TState, never, TEvent>, 'initialState' | 'evolve'>,
  stream: string,
): Promise<TState> {
  const cache = aggregateStateCacheOf(store)
  const known = cache.get<TState>(stream, aggregate)
  const { state, revision } = await readForward(store, aggregate, stream, known?.state ?? aggregate.initialState(), known?.revision)
  if (revision !== undefined) cache.put(stream, aggregate, state, revision)
  return state
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

/** Appends refused for a moved stream before the command gives up (each is followed by a read forward). */
const MAX_ATTEMPTS = 8

/**
 * Load → decide → append, retrying when another writer appended to the stream in between.
 * Domain errors from `decide` propagate unchanged; events are validated against their schema first.
 *
 * The state comes from the store's aggregate state cache when it holds the stream (commands/aggregate-state-cache.ts),
 * without reading the log: the append's expected revision proves that state was current, and a refused append
 * reads the stream forward from there and decides again. A command that appends nothing (a no-op or a domain
 * error) is only answered from a state read forward first, so it never answers from a stale state either.
 */
export async function handleCommand<TState, TCommand, TEvent extends DomainEvent>(
  deps: WriteDeps,
  aggregate: Aggregate<TState, TCommand, TEvent>,
  stream: string,
  command: TCommand,
  context: CommandContext,
  orgOf: (state: TState) => number | null,
): Promise<CommandOutcome<TState, TEvent>> {
  const cache = aggregateStateCacheOf(deps.store)
  const known = cache.get<TState>(stream, aggregate)
  // `current`: state was read up to the stream's end by this command (not only taken from the cache).
  let { state, revision } = known ?? (await readForward(deps.store, aggregate, stream, aggregate.initialState(), undefined))
  let current = known === undefined
  for (let attempt = 1; ; ) {
    let events: readonly TEvent[]
    let after = state
    let toAppend: NewEvent[]
    try {
      events = aggregate.decide(command, state)
      for (const event of events) after = aggregate.evolve(after, event)
      toAppend = events.length === 0 ? [] : toNewEvents(deps, context, events, orgOf(after))
    } catch (error) {
      if (current) throw error
      ;({ state, revision } = await readForward(deps.store, aggregate, stream, state, revision))
      current = true
      continue
    }
    if (events.length === 0) {
      if (!current) {
        ;({ state, revision } = await readForward(deps.store, aggregate, stream, state, revision))
        current = true
        continue
      }
      if (revision !== undefined) cache.put(stream, aggregate, state, revision)
      return { state, events, position: null }
    }
    let result: AppendResult
    try {
      result = await deps.store.append(stream, toAppend, revision ?? 'no_stream')
    } catch (error) {
      // Another error may or may not have appended: the entry stays, and a stale one is refused next time.
      if (!(error instanceof WrongExpectedRevisionError)) throw error
      if (attempt >= MAX_ATTEMPTS) {
        cache.drop(stream)
        throw error
      }
      attempt++
      ;({ state, revision } = await readForward(deps.store, aggregate, stream, state, revision))
      current = true
      continue
    }
    // Kept as a later read would fold it: from the validated data as stored (JSON), not the decided objects.
    let stored = state
    for (const event of toAppend) stored = aggregate.evolve(stored, { type: event.type, data: JSON.parse(JSON.stringify(event.data)) } as TEvent)
    cache.put(stream, aggregate, stored, result.nextRevision)
    return { state: after, events, position: result.position }
  }
}

/** Folds the stream's events after `revision` (all of them when undefined) into `state`. */
async function readForward<TState, TEvent extends DomainEvent>(
  store: EventStore,
  aggregate: Pick<Aggregate<TState, never, TEvent>, 'evolve'>,
  stream: string,
  state: TState,
  revision: bigint | undefined,
): Promise<{ state: TState; revision: bigint | undefined }> {
  const options = revision === undefined ? undefined : { fromRevision: revision + 1n }
  for await (const recorded of store.readStream(stream, options)) {
    state = aggregate.evolve(state, { type: recorded.type, data: recorded.data } as TEvent)
    revision = recorded.revision
  }
  return { state, revision }
}

/**
 * Decided events as the store takes them: each validated against its schema, with the metadata every event
 * carries. The one place that builds them: handleCommand, appendAudit, appendDecided (commands/aeo/append.ts)
 * and the webhook worker's attempt records all go through it.
 */
export function toNewEvents(deps: WriteDeps, context: CommandContext, events: readonly DomainEvent[], orgId: number | null): NewEvent[] {
  const metadata: EventMetadata = {
    org_id: orgId,
    actor: context.actor,
    correlation_id: context.correlationId,
    causation_id: context.causationId,
    request_id: context.requestId,
    occurred_at: deps.clock().toISOString(),
    schema_version: 1,
  }
  return events.map((event) => ({
    type: event.type,
    data: validate(event),
    // Each event carries the version of its own type's schema, the one `validate` checked it against.
    metadata: { ...metadata, schema_version: currentSchemaVersion(event.type) } as unknown as Record<string, unknown>,
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
export async function appendAudit(deps: WriteDeps, stream: string, events: readonly DomainEvent[], context: CommandContext, orgId: number | null): Promise<Position> {
  const result = await deps.store.append(stream, toNewEvents(deps, context, events, orgId), 'any')
  return result.position
}
