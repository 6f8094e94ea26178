/**
 * Emmett-style specifications for pure aggregates: given past events, when a command, then the exact new
 * events or a DomainError with a code. No database, no clock: the aggregate is all there is.
 *
 *   spec(client)(clientAdded()).when(updateClient({ name: 'New' })).then(t, [clientUpdated({ name: 'New' })])
 *
 * Every `then` also checks that each produced event passes its zod schema in domain/events.ts and that the
 * schema leaves it unchanged: the command handler appends the *parsed* data while it evolves the in-memory
 * state from the raw data, so an event the schema would trim or strip makes the two disagree.
 */
import { isDeepStrictEqual } from 'node:util'
import { schemaOf } from '../../domain/events.js'
import { fold, type Aggregate } from '../../domain/shared/aggregate.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { DomainEvent } from '../../domain/shared/event.js'

/** The few tap assertions the specifications use (a tap `t` satisfies it). */
type Message = [] | [message: string]
export interface Assert {
  strictSame(found: unknown, wanted: unknown, ...message: Message): boolean
  equal(found: unknown, wanted: unknown, ...message: Message): boolean
  ok(value: unknown, ...message: Message): boolean
  fail(...message: Message): boolean
}

/** What is wrong with one event against its schema, or null when it is valid and already canonical. */
export function schemaProblem(event: DomainEvent): string | null {
  const schema = schemaOf(event.type)
  if (!schema) return `no schema registered for ${event.type}`
  const result = schema.safeParse(event.data)
  if (!result.success) return `${event.type} fails its schema: ${result.error.message}`
  if (!isDeepStrictEqual(result.data, event.data)) {
    return `${event.type} is changed by its schema: ${JSON.stringify(event.data)} → ${JSON.stringify(result.data)}`
  }
  return null
}

/** Asserts every event is valid and canonical for its schema. */
export function assertValidEvents(t: Assert, events: readonly DomainEvent[]): void {
  for (const event of events) {
    const problem = schemaProblem(event)
    t.ok(problem === null, problem ?? `${event.type} passes its schema`)
  }
}

export interface ExpectedError {
  readonly message?: string
  readonly detail?: string | undefined
}

/** Runs `decide`, returning the thrown DomainError (anything else is rethrown) or the events. */
export function attempt<E>(decide: () => readonly E[]): { events: readonly E[] } | { error: DomainError } {
  try {
    return { events: decide() }
  } catch (error) {
    if (error instanceof DomainError) return { error }
    throw error
  }
}

export function spec<S, C, E extends DomainEvent>(aggregate: Pick<Aggregate<S, C, E, never>, 'initialState' | 'evolve' | 'decide'>) {
  return (...given: readonly E[]) => ({
    when: (command: C) => {
      const run = () => aggregate.decide(command, fold(aggregate, given))
      return {
        /** Exactly these events, in this order, each valid for its schema. */
        // biome-ignore lint/suspicious/noThenProperty: given/when/then reads as the spec; this object is never awaited.
        then(t: Assert, expected: readonly E[]): readonly E[] {
          const outcome = attempt<E>(run)
          if ('error' in outcome) {
            t.fail(`expected events, got DomainError ${outcome.error.code}: ${outcome.error.message} (${outcome.error.detail})`)
            return []
          }
          t.strictSame(outcome.events, expected, 'the expected events')
          assertValidEvents(t, outcome.events)
          return outcome.events
        },
        /** No events: the command is a no-op in this state. */
        thenNothingHappens(t: Assert): void {
          this.then(t, [])
        },
        /** A DomainError with this code (and, when given, this message and detail). */
        thenThrows(t: Assert, code: string, expected: ExpectedError = {}): DomainError | undefined {
          const outcome = attempt<E>(run)
          if (!('error' in outcome)) {
            t.fail(`expected DomainError ${code}, got events ${JSON.stringify(outcome.events)}`)
            return undefined
          }
          t.equal(outcome.error.code, code, `DomainError code ${code}`)
          if ('message' in expected) t.equal(outcome.error.message, expected.message, 'error message')
          if ('detail' in expected) t.equal(outcome.error.detail, expected.detail, 'error detail')
          return outcome.error
        },
      }
    },
  })
}
