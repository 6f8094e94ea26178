import type { DomainEvent, EventMetadata } from './event.js'

/**
 * An event as `evolve` receives it: as recorded, with its metadata (the time it happened, the organization),
 * or as `decide` just produced it, without (folded into the state the command answers with). An aggregate
 * that reads metadata keeps what it had when there is none.
 */
export type Evolving<TEvent extends DomainEvent> = TEvent & { readonly metadata?: Readonly<Partial<EventMetadata>> | undefined }

/**
 * An aggregate is pure: `decide` turns a command and the current state into events (or throws a
 * DomainError), `evolve` folds one event into the state, `streamOf` names the stream one instance lives in
 * (its consistency boundary). The command handler (commands/command-handler.ts) supplies the I/O.
 */
export interface Aggregate<TState, TCommand, TEvent extends DomainEvent, TId = number> {
  readonly streamOf: (id: TId) => string
  readonly initialState: () => TState
  readonly evolve: (state: TState, event: Evolving<TEvent>) => TState
  readonly decide: (command: TCommand, state: TState) => readonly TEvent[]
  /**
   * The organization an instance belongs to (null: none yet, or a platform-level record): stamped on the
   * metadata of the events it decides, and what a visibility check compares. Absent: the caller names the
   * organization with each command.
   */
  readonly orgOf?: (state: TState) => number | null
  /** What a not_found answer calls an instance (`job 7 not found`). */
  readonly entity?: string
}

/** Folds a sequence of events into a state, from the aggregate's initial state. */
export function fold<TState, TEvent extends DomainEvent>(
  aggregate: Pick<Aggregate<TState, never, TEvent, never>, 'initialState' | 'evolve'>,
  events: Iterable<Evolving<TEvent>>,
): TState {
  let state = aggregate.initialState()
  for (const event of events) state = aggregate.evolve(state, event)
  return state
}
