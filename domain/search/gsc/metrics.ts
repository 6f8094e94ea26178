/**
 * Search Console's four numbers over any set of rows: clicks and impressions add up; CTR is clicks over
 * impressions; position is the impression-weighted mean of the rows' positions (a row seen 1,000 times at
 * 3 weighs a hundred times one seen 10 times at 40), as Search Console itself averages them.
 */
export interface GscMetrics {
  readonly clicks: number
  readonly impressions: number
  /** clicks / impressions, 0–1, four decimals; 0 without impressions. */
  readonly ctr: number
  /** Impression-weighted mean position, two decimals; null without impressions. */
  readonly position: number | null
}

/** Sums as a query adds them up: `weighted_position` is Σ position × impressions. */
export interface GscSums {
  readonly clicks: number
  readonly impressions: number
  readonly weighted_position: number
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places

export function metricsOf(sums: GscSums): GscMetrics {
  const { clicks, impressions } = sums
  if (impressions <= 0) return { clicks, impressions: 0, ctr: 0, position: null }
  return { clicks, impressions, ctr: round(clicks / impressions, 4), position: round(sums.weighted_position / impressions, 2) }
}

/** The sums of several rows (each with its own position), for callers that hold rows rather than sums. */
export function sumRows(rows: readonly { clicks: number; impressions: number; position: number }[]): GscSums {
  let clicks = 0
  let impressions = 0
  let weighted = 0
  for (const r of rows) {
    clicks += r.clicks
    impressions += r.impressions
    weighted += r.position * r.impressions
  }
  return { clicks, impressions, weighted_position: weighted }
}
