import type { GscPeriod, GscQueryPage } from './inputs.js'

/**
 * Which Search Console rows the rules read: the GSC_PERIOD_DAYS up to the last day a completed capture
 * covers, each day from the latest completed capture (highest id) covering it, as get_gsc_snapshot reads
 * them, so a later capture of the same days replaces an earlier one and no day counts twice.
 */
export const GSC_PERIOD_DAYS = 28

export interface CompletedCapture {
  readonly id: number
  /** YYYY-MM-DD, inclusive. */
  readonly start_date: string
  readonly end_date: string
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + days)
  return date.toISOString().slice(0, 10)
}

/** The period the rules read; null without a completed capture. */
export function gscPeriodOf(completed: readonly CompletedCapture[]): GscPeriod | null {
  if (completed.length === 0) return null
  const end = completed.map((c) => c.end_date).sort()[completed.length - 1]!
  return { start: addDays(end, -(GSC_PERIOD_DAYS - 1)), end }
}

/** The capture each day of the period is read from (days no completed capture covers are left out). */
export function captureOfDays(period: GscPeriod, completed: readonly CompletedCapture[]): { day: string; captureId: number }[] {
  const days: { day: string; captureId: number }[] = []
  for (let day = period.start; day <= period.end; day = addDays(day, 1)) {
    let best: number | null = null
    for (const c of completed) if (c.start_date <= day && day <= c.end_date && (best === null || c.id > best)) best = c.id
    if (best !== null) days.push({ day, captureId: best })
  }
  return days
}

/** Query × page totals of day rows: clicks and impressions summed, position impression-weighted. */
export function queryPageTotals(
  rows: readonly { query: string; page: string; clicks: number; impressions: number; position: number }[],
): GscQueryPage[] {
  const sums = new Map<
    string,
    { query: string; page: string; clicks: number; impressions: number; weighted: number; positions: number[] }
  >()
  for (const r of rows) {
    const key = `${r.query}\u0000${r.page}`
    const s = sums.get(key) ?? { query: r.query, page: r.page, clicks: 0, impressions: 0, weighted: 0, positions: [] }
    s.clicks += r.clicks
    s.impressions += r.impressions
    s.weighted += r.position * r.impressions
    s.positions.push(r.position)
    sums.set(key, s)
  }
  return [...sums.values()].map((s) => ({
    query: s.query,
    page: s.page,
    clicks: s.clicks,
    impressions: s.impressions,
    // Rows without impressions carry no weight: their plain average then.
    position: s.impressions > 0 ? s.weighted / s.impressions : s.positions.reduce((a, b) => a + b, 0) / s.positions.length,
  }))
}
