import type { ProjectedEvent } from './projector.js'

/**
 * A batch write's loop: walks a projector's events in log order and gives each maximal stretch of `type`
 * to `stretch` (one statement for many events) and every other event to `single` (its own write). The
 * runner gives a projector only the events of the types it handles, so events that cannot change its tables
 * do not break a stretch: a capture's ingest and its tracking alternate in the log, yet a rebuild page's
 * ingests are one stretch for the captures projector. Returns what each call returned, in order.
 */
export async function inStretches<T>(
  events: readonly ProjectedEvent[],
  type: string,
  stretch: (events: readonly ProjectedEvent[]) => Promise<T>,
  single: (event: ProjectedEvent) => Promise<T>,
): Promise<T[]> {
  const results: T[] = []
  let i = 0
  while (i < events.length) {
    let j = i + 1
    if (events[i]!.type === type) {
      while (j < events.length && events[j]!.type === type) j++
      results.push(await stretch(events.slice(i, j)))
    } else results.push(await single(events[i]!))
    i = j
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
