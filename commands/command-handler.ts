import type { Aggregate, Evolving } from '../domain/shared/aggregate.js'
import type { DomainEvent } from '../domain/shared/event.js'
import { NotFoundError } from '../domain/shared/errors.js'
import { toNewEvents } from './append.js'
import { aggregateStateCacheOf } from './aggregate-state-cache.js'
import type { CommandContext, WriteDeps } from './command-context.js'
import { decode } from './event-store/decode.js'
import { WrongExpectedRevisionError, type AppendResult, type EventStore, type NewEvent, type Position } from './event-store/port.js'

// Every write imports its vocabulary from here, so these live in their own modules without new import paths.
export { systemContext, type CommandContext, type WriteDeps } from './command-context.js'
export { toNewEvents } from './append.js'

/**
 * Appends refused for a moved stream before a command gives up (each is followed by a read forward). The one
 * retry policy of every write: a stream hot enough to refuse eight in a row is better answered with the
 * conflict than held.
 */
const MAX_ATTEMPTS = 8

type Folding<TState, TEvent extends DomainEvent> = Pick<Aggregate<TState, never, TEvent, never>, 'initialState' | 'evolve'>

/**
 * An aggregate's state, folded from every decoded event of its stream (an empty stream: the initial state).
 * Always read to the stream's end, but only from after the revision the store's aggregate state cache holds.
 */
export async function loadState<TState, TEvent extends DomainEvent, TId>(
  store: EventStore,
  aggregate: Folding<TState, TEvent> & Pick<Aggregate<TState, never, TEvent, TId>, 'streamOf'>,
  id: TId,
): Promise<TState> {
  return (await loadStateAt(store, aggregate, id)).state
}

/** loadState, with the revision of the last event folded (undefined: no stream): what a later `expected` names. */
export async function loadStateAt<TState, TEvent extends DomainEvent, TId>(
  store: EventStore,
  aggregate: Folding<TState, TEvent> & Pick<Aggregate<TState, never, TEvent, TId>, 'streamOf'>,
  id: TId,
): Promise<{ state: TState; revision: bigint | undefined }> {
  const stream = aggregate.streamOf(id)
  const cache = aggregateStateCacheOf(store)
  const known = cache.get<TState>(stream, aggregate)
  const read = await readForward(store, aggregate, stream, known?.state ?? aggregate.initialState(), known?.revision)
  if (read.revision !== undefined) cache.put(stream, aggregate, read.state, read.revision)
  return read
}

export interface CommandOutcome<TState, TEvent> {
  /** State after the new events. */
  readonly state: TState
  readonly events: readonly TEvent[]
  /** Position of the last appended event; null when the command changed nothing. */
  readonly position: Position | null
  /** The organization of the instance (the `orgId` given, else the aggregate's `orgOf`), null when neither knows. */
  readonly orgId: number | null
}

export interface CommandRequest<TState, TCommand, TEvent extends DomainEvent, TId> {
  readonly aggregate: Aggregate<TState, TCommand, TEvent, TId>
  /** Which instance: the stream is `aggregate.streamOf(id)`. */
  readonly id: TId
  /**
   * The command, or how to make it from the current state: for a command that needs a read the state points
   * to (a slot names the job holding it; whether that job still runs is in the job's stream). Made again on
   * every attempt, so it always describes the state it is decided on.
   */
  readonly command: TCommand | ((state: TState) => TCommand | Promise<TCommand>)
  readonly context: CommandContext
  /**
   * The organization stamped on the events' metadata. Absent: `aggregate.orgOf` of the state after the
   * events; an aggregate without `orgOf` must be given one (the handler refuses to guess an audit field).
   */
  readonly orgId?: number | null
  /**
   * Only an instance of this organization (null: of any organization) exists for this command: a missing
   * one, or one of another organization, throws NotFoundError naming `aggregate.entity`, the two alike.
   * Needs `aggregate.orgOf`.
   */
  readonly visibleTo?: number | null
  /**
   * The revision the caller decided against elsewhere (before publishing a site edit, say): the command is
   * decided only on the state at exactly this revision, and a stream that moved past it throws
   * WrongExpectedRevisionError at once, never retried (the caller's decision is what went stale).
   */
  readonly expected?: bigint | 'no_stream'
  /** false: a refused append throws WrongExpectedRevisionError instead of reading forward and deciding again. */
  readonly retry?: boolean
}

/**
 * Load → decide → append, retrying when another writer appended to the stream in between: the one command
 * path of every aggregate. Domain errors from `decide` propagate unchanged; events are validated against
 * their schema first.
 *
 * The state comes from the store's aggregate state cache when it holds the stream (commands/aggregate-state-cache.ts),
 * without reading the log: the append's expected revision proves that state was current, and a refused append
 * reads the stream forward from there and decides again. A command that appends nothing (a no-op, a domain
 * error, an instance not visible) is only answered from a state read forward first, so it never answers from
 * a stale state either.
 */
export async function handleCommand<TState, TCommand, TEvent extends DomainEvent, TId>(
  deps: WriteDeps,
  request: CommandRequest<TState, TCommand, TEvent, TId>,
): Promise<CommandOutcome<TState, TEvent>> {
  const { aggregate, expected } = request
  const stream = aggregate.streamOf(request.id)
  const retries = expected === undefined && request.retry !== false
  const cache = aggregateStateCacheOf(deps.store)
  const known = cache.get<TState>(stream, aggregate)
  // `current`: state was read up to the stream's end by this command (not only taken from the cache).
  let { state, revision } = known ?? (await readForward(deps.store, aggregate, stream, aggregate.initialState(), undefined))
  let current = known === undefined
  const readOn = async () => {
    ;({ state, revision } = await readForward(deps.store, aggregate, stream, state, revision))
    current = true
  }
  for (let attempt = 1; ; ) {
    if (expected !== undefined && (revision ?? 'no_stream') !== expected) {
      if (current) throw new WrongExpectedRevisionError(stream, expected, revision ?? 'no_stream')
      await readOn()
      continue
    }
    let events: readonly TEvent[]
    let after = state
    let toAppend: NewEvent[]
    try {
      assertVisible(request, state)
      const command =
        typeof request.command === 'function'
          ? await (request.command as (state: TState) => TCommand | Promise<TCommand>)(state)
          : request.command
      events = aggregate.decide(command, state)
      for (const event of events) after = aggregate.evolve(after, event)
      toAppend = events.length === 0 ? [] : toNewEvents(deps, request.context, events, orgFor(request, after))
    } catch (error) {
      if (current) throw error
      await readOn()
      continue
    }
    if (events.length === 0) {
      if (!current) {
        await readOn()
        continue
      }
      if (revision !== undefined) cache.put(stream, aggregate, state, revision)
      return { state, events, position: null, orgId: orgOf(request, state) }
    }
    let result: AppendResult
    try {
      result = await deps.store.append(stream, toAppend, revision ?? 'no_stream')
    } catch (error) {
      // Another error may or may not have appended: the entry stays, and a stale one is refused next time.
      if (!(error instanceof WrongExpectedRevisionError)) throw error
      if (!retries || attempt >= MAX_ATTEMPTS) {
        cache.drop(stream)
        throw error
      }
      attempt++
      await readOn()
      continue
    }
    // Kept as a later read would fold it: from the validated data as stored (JSON) with its metadata, not the decided objects.
    let stored = state
    for (const event of toAppend) {
      stored = aggregate.evolve(stored, {
        type: event.type,
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: event.metadata,
      } as Evolving<TEvent>)
    }
    cache.put(stream, aggregate, stored, result.nextRevision)
    return { state: after, events, position: result.position, orgId: orgOf(request, after) }
  }
}

function orgOf<TState, TCommand, TEvent extends DomainEvent, TId>(
  request: CommandRequest<TState, TCommand, TEvent, TId>,
  state: TState,
): number | null {
  return request.orgId !== undefined ? request.orgId : (request.aggregate.orgOf?.(state) ?? null)
}

/** The organization for new events' metadata: given, or the aggregate's; never silently none. */
function orgFor<TState, TCommand, TEvent extends DomainEvent, TId>(
  request: CommandRequest<TState, TCommand, TEvent, TId>,
  after: TState,
): number | null {
  if (request.orgId === undefined && request.aggregate.orgOf === undefined) {
    throw new TypeError(`${request.aggregate.streamOf(request.id)}: the command names no organization and the aggregate has no orgOf`)
  }
  return orgOf(request, after)
}

function assertVisible<TState, TCommand, TEvent extends DomainEvent, TId>(
  request: CommandRequest<TState, TCommand, TEvent, TId>,
  state: TState,
): void {
  if (request.visibleTo === undefined) return
  const org = request.aggregate.orgOf?.(state) ?? null
  if (org === null || (request.visibleTo !== null && org !== request.visibleTo)) {
    throw new NotFoundError(request.aggregate.entity ?? 'record', String(request.id))
  }
}

/** Folds the stream's decoded events after `revision` (all of them when undefined) into `state`. */
async function readForward<TState, TEvent extends DomainEvent>(
  store: EventStore,
  aggregate: Pick<Aggregate<TState, never, TEvent, never>, 'evolve'>,
  stream: string,
  state: TState,
  revision: bigint | undefined,
): Promise<{ state: TState; revision: bigint | undefined }> {
  const options = revision === undefined ? undefined : { fromRevision: revision + 1n }
  for await (const recorded of store.readStream(stream, options)) {
    state = aggregate.evolve(state, decode(recorded) as unknown as Evolving<TEvent>)
    revision = recorded.revision
  }
  return { state, revision }
}
