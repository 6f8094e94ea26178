import type { RecordedEvent } from '../commands/event-store/port.js'
import { decode, isKnownEvent } from '../commands/event-store/decode.js'
import { eventsFor, type ProjectedEvent, type Projector } from './projector.js'
import type { ReadDb } from './tables.js'

/**
 * Applies a batch to each projector in turn, giving each the batch's events of the types it handles (in log
 * order). Projectors write only their own tables, so one can take the whole batch before the next does.
 */
export async function applyEvents(db: ReadDb, projectors: readonly Projector[], events: readonly RecordedEvent[]): Promise<void> {
  const decoded = decodeBatch(events)
  for (const projector of projectors) {
    const mine = eventsFor(projector, decoded)
    if (mine.length > 0) await projector.apply(db, mine)
  }
}

/**
 * The batch decoded (commands/event-store/decode.ts: narrowed, old versions lifted). Events of types the
 * domain does not know (tools and tests append some) mean nothing to a read model and are left out; an
 * event of a known type that fails to decode throws, and its batch fails as any projector failure does.
 */
export function decodeBatch(events: readonly RecordedEvent[]): ProjectedEvent[] {
  const decoded: ProjectedEvent[] = []
  for (const event of events) if (isKnownEvent(event)) decoded.push(decode(event))
  return decoded
}
