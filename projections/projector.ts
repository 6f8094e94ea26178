import type { RecordedEvent } from '../commands/event-store/port.js'
import type { ReadDb } from './tables.js'

/**
 * A projector maps event types to read-model writes. Every handler is idempotent (the same event applied
 * twice leaves the same rows), takes its times from the event's metadata (so a rebuild reproduces them),
 * and never reads the event store. A projector writes only its own tables, so projectors never see each
 * other's writes and each can apply a whole batch before the next one does.
 */
export type ProjectionHandler = (db: ReadDb, event: RecordedEvent) => Promise<void>

/**
 * Applies a batch of events (in log order; redeliveries included) with exactly the effect of calling the
 * projector's handlers on each event in turn, in a few statements instead of one or more per event.
 */
export type BatchHandler = (db: ReadDb, events: readonly RecordedEvent[]) => Promise<void>

export interface Projector {
  readonly name: string
  /** The event types the projector handles (`*`: every type), and the write each one means. */
  readonly handlers: Readonly<Record<string, ProjectionHandler>>
  /** Optional: the same writes for a whole batch (catch-up and rebuild apply thousands of events per batch). */
  readonly applyBatch?: BatchHandler
  /**
   * Reads no table but its own, and no projector that runs beside it reads or writes its tables. A rebuild's
   * building phase applies each standalone projector's writes on a connection of its own, beside each other
   * and beside those of every other projector listed before the last standalone one, so that PostgreSQL
   * executes them at once (projections/rebuild-page.ts); the projectors listed after the last standalone one
   * run after their writes and may read them.
   */
  readonly standalone?: boolean
}

/** The handler a projector applies to an event, if any. */
export function handlerFor(projector: Projector, type: string): ProjectionHandler | undefined {
  return projector.handlers[type] ?? projector.handlers['*']
}

/** The event's business time: metadata.occurred_at, falling back to when the store recorded it. */
export function occurredAt(event: RecordedEvent): Date {
  const value = event.metadata?.occurred_at
  return typeof value === 'string' ? new Date(value) : event.recordedAt
}
