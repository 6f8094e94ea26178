import type { DomainEvent } from './event.js'

/**
 * An aggregate is pure: `decide` turns a command and the current state into events (or throws a
 * DomainError), `evolve` folds one event into the state. The command handler supplies I/O.
 */
export interface Aggregate<TState, TCommand, TEvent extends DomainEvent> {
  readonly initialState: () => TState
  readonly evolve: (state: TState, event: TEvent) => TState
  readonly decide: (command: TCommand, state: TState) => readonly TEvent[]
}

/** Folds a sequence of events into a state, from the aggregate's initial state. */
export function fold<TState, TEvent extends DomainEvent>(
  aggregate: Pick<Aggregate<TState, never, TEvent>, 'initialState' | 'evolve'>,
  events: Iterable<TEvent>,
): TState {
  let state = aggregate.initialState()
  for (const event of events) state = aggregate.evolve(state, event)
  return state
}
