import type { ReportInput } from '../../../domain/aeo/reports/html.js'
import { previousMonth, summarizeRates, type RatesSummary } from '../../../domain/aeo/summary/summary.js'
import { proportion } from '../../../domain/aeo/summary/wilson.js'
import { monthOfDate } from '../../../domain/shared/months.js'
import type { ClientRow } from '../../clients/queries.js'
import type { ReadDb } from '../../tables.js'
import { brandingOf, citedSources, openItems, type CadenceView, type OpenItemsByTier, type QueueCounts } from './queries.js'
import { summaryCompetitors, summaryCounts, summaryMonths } from './summary-totals.js'

/** `YYYY-MM` of a time, in UTC (months are calendar months in UTC everywhere in the area). */

export interface AeoSummary extends RatesSummary {
  readonly client_id: number
  /** Every month with captures, ascending. */
  readonly months: string[]
  readonly open_items: OpenItemsByTier
  readonly queue: QueueCounts
  readonly cadence: CadenceView
}

/** The month a read is about: the one asked for, else the latest with captures, else the current month. */
export function resolveMonth(months: readonly string[], requested: string | undefined, now: Date): string {
  return requested ?? months.at(-1) ?? monthOfDate(now)
}

/* get_aeo_summary itself is one statement: summary-query.ts. */

/**
 * Everything the report page shows for `month`, or null when the month has no captures. Throws nothing
 * else for a visible client.
 */
export async function loadReportInput(
  db: ReadDb,
  client: ClientRow,
  requested: string | undefined,
  now: Date,
): Promise<{ month: string; months: string[]; input: ReportInput | null }> {
  // The same totals get_aeo_summary reads, so the report and the summary cannot disagree.
  const months = await summaryMonths(db, client.id)
  const month = resolveMonth(months, requested, now)
  if (!months.includes(month)) return { month, months, input: null }
  const previous = previousMonth(months, month)
  // The trend runs up to the report's month: a report filed for March never shows April.
  const trendMonths = months.filter((m) => m <= month)
  const [counts, competitors, sources, items, org] = await Promise.all([
    summaryCounts(db, client.id, trendMonths),
    summaryCompetitors(db, client.id, month),
    citedSources(db, client.id, month),
    openItems(db, client.id),
    brandingOf(db, client.org_id),
  ])
  const summary = summarizeRates({ month, previousMonth: previous, counts, competitors })
  const trend = trendMonths.map((m) => {
    const rows = counts.filter((r) => r.month === m)
    const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((acc, r) => acc + pick(r), 0)
    const captures = sum((r) => r.captures)
    return {
      month: m,
      presence: proportion(
        sum((r) => r.present),
        captures,
      ),
      named_first: proportion(
        sum((r) => r.namedFirst),
        captures,
      ),
    }
  })
  const brandName = org?.branding.name ?? org?.name ?? 'AI Visibility'
  return {
    month,
    months,
    input: {
      brand: { name: brandName, accent_color: org?.branding.accent_color ?? null },
      client: { name: client.name, website_url: client.website_url },
      month,
      generated_at: now.toISOString(),
      summary,
      trend,
      sources,
      items,
    },
  }
}
