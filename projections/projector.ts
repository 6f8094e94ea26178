import type { RecordedEvent } from '../commands/event-store/port.js'
import type { ReadDb } from './tables.js'

/**
 * A projector maps event types to read-model writes. Every handler is idempotent (the same event applied
 * twice leaves the same rows), takes its times from the event's metadata (so a rebuild reproduces them),
 * and never reads the event store.
 */
export type ProjectionHandler = (db: ReadDb, event: RecordedEvent) => Promise<void>

export interface Projector {
  readonly name: string
  readonly handlers: Readonly<Record<string, ProjectionHandler>>
}

/** The event's business time: metadata.occurred_at, falling back to when the store recorded it. */
export function occurredAt(event: RecordedEvent): Date {
  const value = event.metadata?.occurred_at
  return typeof value === 'string' ? new Date(value) : event.recordedAt
}
