import type { RecordedEvent } from '../commands/event-store/port.js'

/**
 * A batch form's loop: walks a batch's events of the types a projector handles, in log order, and gives
 * each maximal stretch of `type` to `stretch` (one statement for many events) and every other event to
 * `single` (its handler). Events of types the projector does not handle cannot change its tables, so they
 * do not break a stretch: a capture's ingest and its tracking alternate in the log, yet a rebuild page's
 * ingests are one stretch for the captures projector. Returns what each call returned, in order.
 */
export async function inStretches<T>(
  events: readonly RecordedEvent[],
  handles: (type: string) => boolean,
  type: string,
  stretch: (events: readonly RecordedEvent[]) => Promise<T>,
  single: (event: RecordedEvent) => Promise<T>,
): Promise<T[]> {
  const mine = events.filter((event) => handles(event.type))
  const results: T[] = []
  let i = 0
  while (i < mine.length) {
    let j = i + 1
    if (mine[i]!.type === type) {
      while (j < mine.length && mine[j]!.type === type) j++
      results.push(await stretch(mine.slice(i, j)))
    } else results.push(await single(mine[i]!))
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
