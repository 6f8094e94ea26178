import { eventsFor, type ProjectedEvent, type Projector } from './projector.js'
import type { ReadDb } from './tables.js'

/**
 * Applies a batch to each projector in turn, giving each the batch's events of the types it handles (in log
 * order). Projectors write only their own tables, so one can take the whole batch before the next does.
 */
export async function applyEvents(db: ReadDb, projectors: readonly Projector[], events: readonly ProjectedEvent[]): Promise<void> {
  for (const projector of projectors) {
    const mine = eventsFor(projector, events)
    if (mine.length > 0) await projector.apply(db, mine)
  }
}
