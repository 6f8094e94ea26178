import type { RecordedEvent } from '../commands/event-store/port.js'
import type { ReadDb } from './tables.js'

/** An event as a projector reads it. */
export type ProjectedEvent = RecordedEvent

/**
 * A projector: the event types it handles and one write for a batch of them. `apply` is given the batch's
 * events of those types only, in log order, redeliveries included (delivery is at-least-once), and leaves
 * exactly the rows that applying them one at a time would: the same event applied twice changes nothing.
 * It takes its times from the events' metadata (so a rebuild reproduces them) and never reads the event
 * store. A projector writes only its own tables, so projectors never see each other's writes and each can
 * apply a whole batch before the next one does. A projector written event by event is built by eachEvent
 * (each-event.ts).
 */
export interface Projector {
  readonly name: string
  /** The event types the projector is given; `*`: every type. */
  readonly handles: readonly string[] | '*'
  readonly apply: (db: ReadDb, events: readonly ProjectedEvent[]) => Promise<void>
  /**
   * Reads no table but its own, and no projector that runs beside it reads or writes its tables. A rebuild's
   * building phase applies each standalone projector's writes on a connection of its own, beside each other
   * and beside those of every other projector listed before the last standalone one, so that PostgreSQL
   * executes them at once (projections/rebuild-page.ts); the projectors listed after the last standalone one
   * run after their writes and may read them.
   */
  readonly standalone?: boolean
}

/** The events of `events` that `projector` handles, in order. */
export function eventsFor(projector: Projector, events: readonly ProjectedEvent[]): readonly ProjectedEvent[] {
  if (projector.handles === '*') return events
  const handles = projector.handles
  return events.filter((event) => handles.includes(event.type))
}

/** The event's business time: metadata.occurred_at, falling back to when the store recorded it. */
export function occurredAt(event: ProjectedEvent): Date {
  const value = event.metadata?.occurred_at
  return typeof value === 'string' ? new Date(value) : event.recordedAt
}
