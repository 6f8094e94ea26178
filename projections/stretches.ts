import type { EventType } from '../domain/events.js'
import { isOfType, type EventOf, type ProjectedEvent } from './projector.js'

/**
 * A batch write's loop: walks a projector's events in log order and gives each maximal stretch of `type`
 * to `stretch` (one statement for many events) and every other event to `single` (its own write). The
 * runner gives a projector only the events of the types it handles, so events that cannot change its tables
 * do not break a stretch: a capture's ingest and its tracking alternate in the log, yet a rebuild page's
 * ingests are one stretch for the captures projector. Returns what each call returned, in order.
 */
export async function inStretches<T extends EventType, R>(
  events: readonly ProjectedEvent[],
  type: T,
  stretch: (events: readonly EventOf<T>[]) => Promise<R>,
  single: (event: ProjectedEvent) => Promise<R>,
): Promise<R[]> {
  const results: R[] = []
  let i = 0
  while (i < events.length) {
    const first = events[i]!
    if (!isOfType(first, type)) {
      results.push(await single(first))
      i++
      continue
    }
    const run: EventOf<T>[] = []
    for (let event: ProjectedEvent = first; isOfType(event, type); event = events[i]!) {
      run.push(event)
      if (++i === events.length) break
    }
    results.push(await stretch(run))
  }
  return results
}

/**
 * A stretch's rows in slices of `size`, one statement each: PostgreSQL takes at most 65,535 parameters per
 * statement, and a rebuild page's stretch can hold thousands of events.
 */
export function* inChunks<T>(rows: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size)
}
