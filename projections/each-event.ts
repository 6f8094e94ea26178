import type { EventType } from '../domain/events.js'
import type { EventOf, ProjectedEvent, Projector } from './projector.js'
import type { ReadDb } from './tables.js'

/** Per event type, a function of one event of that type. */
export type EventMap<R> = { readonly [T in EventType]?: (db: ReadDb, event: EventOf<T>) => Promise<R> }

/** Per event type, the write one event of it means; each idempotent (applied twice, the same rows). */
export type EventHandlers = EventMap<void>

export interface EachEventDefinition {
  readonly name: string
  readonly handlers: EventHandlers
  readonly standalone?: boolean
}

/**
 * A projector written event by event: its `apply` runs each event's handler in log order, one event after
 * the other (for read models whose events are rare enough that a statement per event costs nothing).
 */
export function eachEvent(definition: EachEventDefinition): Projector {
  const { name, handlers, standalone } = definition
  return {
    name,
    handles: typesOf(handlers),
    ...(standalone === undefined ? {} : { standalone }),
    async apply(db, events) {
      for (const event of events) await applyHandler(handlers, db, event)
    },
  }
}

/** Runs the handler of the event's type, if any. */
export async function applyHandler(handlers: EventHandlers, db: ReadDb, event: ProjectedEvent): Promise<void> {
  await handlerOf(handlers, event)?.(db, event)
}

/** The function of the event's type in `map`, if any, ready to take the event. */
export function handlerOf<R>(map: EventMap<R>, event: ProjectedEvent): ((db: ReadDb, event: ProjectedEvent) => Promise<R>) | undefined {
  // The map pairs each type with a function of that type's event; TypeScript cannot follow the pairing
  // through an index by a union, so the one cast is here.
  return map[event.type] as ((db: ReadDb, event: ProjectedEvent) => Promise<R>) | undefined
}

/** The types a map has functions for. */
export function typesOf(map: EventMap<unknown>): EventType[] {
  return Object.keys(map) as EventType[]
}
