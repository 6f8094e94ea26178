import type { DecodedEvent } from '../commands/event-store/decode.js'
import type { AnyEvent, EventType } from '../domain/events.js'
import type { ReadDb } from './tables.js'

/** An event as a projector reads it: decoded, so `switch (event.type)` narrows its data. */
export type ProjectedEvent = DecodedEvent

/** A decoded event of type T. */
export type EventOf<T extends EventType> = DecodedEvent<Extract<AnyEvent, { readonly type: T }>>

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
  /** The event types the projector is given; `*`: every type the domain knows. */
  readonly handles: readonly EventType[] | '*'
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

const handledTypes = new WeakMap<Projector, ReadonlySet<string>>()

/** The events of `events` that `projector` handles, in order. */
export function eventsFor(projector: Projector, events: readonly ProjectedEvent[]): readonly ProjectedEvent[] {
  if (projector.handles === '*') return events
  let types = handledTypes.get(projector)
  if (!types) {
    types = new Set(projector.handles)
    handledTypes.set(projector, types)
  }
  const handled = types
  return events.filter((event) => handled.has(event.type))
}

/** Whether `event` is of `type` (narrowing it). */
export function isOfType<T extends EventType>(event: ProjectedEvent, type: T): event is EventOf<T> {
  return event.type === type
}

/** The events of the given types among `events`, in order, typed as such. */
export function ofTypes<T extends EventType>(events: readonly ProjectedEvent[], types: readonly T[]): EventOf<T>[] {
  return events.filter((event): event is EventOf<T> => (types as readonly EventType[]).includes(event.type))
}

/** The events of one type among `events`, in order, typed as such. */
export function ofType<T extends EventType>(events: readonly ProjectedEvent[], type: T): EventOf<T>[] {
  return events.filter((event): event is EventOf<T> => event.type === type)
}

/** The event's business time: metadata.occurred_at, falling back to when the store recorded it. */
export function occurredAt(event: ProjectedEvent): Date {
  const value = event.metadata.occurred_at
  return typeof value === 'string' ? new Date(value) : event.recordedAt
}

/**
 * The organization an event belongs to (metadata.org_id), for a row that must name one. Throws for a
 * platform-level event: its projector wrote a row no organization owns, which no read model holds.
 */
export function orgIdOf(event: ProjectedEvent): number {
  const orgId = event.metadata.org_id
  if (typeof orgId !== 'number')
    throw new Error(`${event.stream}@${event.revision} ${event.type}: metadata.org_id is ${String(orgId)}, not an organization`)
  return orgId
}
