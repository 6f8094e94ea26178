import type { RankObservation } from '../inputs.js'

/**
 * One keyword × location × device's rank rows, newest first: what the rank rules compare. The rows come in
 * any order; a series is keyed like the rank row's idempotency key, without the date.
 */
export interface RankSeries {
  readonly keyword_id: number
  readonly location_id: number | null
  readonly device: string
  /** Newest first; never empty. */
  readonly rows: readonly RankObservation[]
}

/** How many of a series' latest rows the rules read: the latest and the four checks before it. */
export const RANK_ROWS_PER_SERIES = 5
/**
 * How far back from the client's latest rank date those rows are looked for: five weekly checks and a week
 * to spare. A series with no row in it (a keyword no longer checked) is not read at all.
 */
export const RANK_LOOKBACK_DAYS = 42

export const seriesKey = (row: Pick<RankObservation, 'keyword_id' | 'location_id' | 'device'>): string =>
  `${row.keyword_id}:${row.location_id ?? 0}:${row.device}`

/** The rows grouped into series, each newest first, in key order (so findings come out in a stable order). */
export function rankSeries(rows: readonly RankObservation[]): RankSeries[] {
  const byKey = new Map<string, RankObservation[]>()
  for (const row of rows) {
    const key = seriesKey(row)
    const list = byKey.get(key)
    if (list) list.push(row)
    else byKey.set(key, [row])
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, list]) => {
      const sorted = [...list].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, RANK_ROWS_PER_SERIES)
      const first = sorted[0]!
      return { keyword_id: first.keyword_id, location_id: first.location_id, device: first.device, rows: sorted }
    })
}

/** "Austin, TX, mobile" (or "national, desktop"): where a series was observed, for summaries. */
export function whereSeen(series: Pick<RankSeries, 'location_id' | 'device'>, locations: ReadonlyMap<number, string>): string {
  const place = series.location_id === null ? 'national' : (locations.get(series.location_id) ?? `location ${series.location_id}`)
  return `${place}, ${series.device}`
}

/** "#4", or "not in the top 100". */
export const positionText = (position: number | null): string => (position === null ? 'not in the top 100' : `#${position}`)
