import type { ProjectedEvent, Projector } from './projector.js'
import type { ReadDb } from './tables.js'

/** One event's write: idempotent (the same event applied twice leaves the same rows). */
export type EventHandler = (db: ReadDb, event: ProjectedEvent) => Promise<void>

export interface EachEventDefinition {
  readonly name: string
  /** Per event type, its write. */
  readonly handlers: Readonly<Record<string, EventHandler>>
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
    handles: Object.keys(handlers),
    ...(standalone === undefined ? {} : { standalone }),
    async apply(db, events) {
      for (const event of events) await handlers[event.type]!(db, event)
    },
  }
}
