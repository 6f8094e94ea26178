/**
 * When a keyword's metrics are wanted (again): never fetched, older than the configured age
 * (KEYWORD_METRICS_MAX_AGE_DAYS), or asked for by refresh_keyword_metrics after they were fetched. Google Ads
 * updates search volumes monthly, so a month-old figure is as good as today's; older ones are refreshed.
 */
export type MetricsNeed = 'missing' | 'stale' | 'refresh_requested'

const DAY_MS = 86_400_000

export interface MetricsTimes {
  /** When the numbers were last recorded; null: never (a failed fetch leaves a row without them). */
  readonly fetchedAt: Date | null
  readonly refreshRequestedAt: Date | null
}

/** Why `row` needs metrics at `now`, or null when its numbers are fresh. No row: missing. */
export function metricsNeed(row: MetricsTimes | undefined, now: Date, maxAgeDays: number): MetricsNeed | null {
  if (!row || row.fetchedAt === null) return 'missing'
  if (row.refreshRequestedAt !== null && row.refreshRequestedAt.getTime() > row.fetchedAt.getTime()) return 'refresh_requested'
  if (now.getTime() - row.fetchedAt.getTime() > maxAgeDays * DAY_MS) return 'stale'
  return null
}

/** Whether numbers fetched at `fetchedAt` are past the configured age at `now`. */
export function isStale(fetchedAt: Date, now: Date, maxAgeDays: number): boolean {
  return now.getTime() - fetchedAt.getTime() > maxAgeDays * DAY_MS
}

/** KEYWORD_METRICS_MAX_AGE_DAYS when the operator sets none (processors/search/settings.ts has the same default). */
export const DEFAULT_METRICS_MAX_AGE_DAYS = 30
