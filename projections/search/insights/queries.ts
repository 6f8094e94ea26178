import { sql, type Selectable } from 'kysely'
import type { InsightSeverity, InsightSource, InsightStatus, InsightType } from '../../../domain/search/insights/kinds.js'
import { META_OPTIMIZATION_STATUSES, type MetaOptimizationStatus } from '../../../domain/search/insights/meta-optimization-set.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { MetaOptimizationsTable, SeoInsightsTable } from './tables.js'

export type SeoInsightRow = Selectable<SeoInsightsTable>
export type MetaOptimizationRow = Selectable<MetaOptimizationsTable>

/** A page of a list (the registry's limit and offset). */
export interface Page {
  readonly limit: number
  readonly offset: number
}

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString())

/** An insight as the API shows it (get_seo_insights, get_unapplied_insights, update_seo_insight). */
export interface SeoInsightView {
  id: number
  client_id: number
  insight_type: InsightType
  source: InsightSource
  severity: InsightSeverity
  summary: string
  keyword_id: number | null
  page_id: number | null
  evidence: Record<string, unknown>
  status: InsightStatus
  applied: boolean
  note: string
  natural_key: string
  raised_at: string
  status_changed_at: string | null
  resolved_at: string | null
}

export function seoInsightView(row: SeoInsightRow): SeoInsightView {
  return {
    id: row.id,
    client_id: row.client_id,
    insight_type: row.insight_type,
    source: row.source,
    severity: row.severity,
    summary: row.summary,
    keyword_id: row.keyword_id,
    page_id: row.page_id,
    evidence: row.evidence,
    status: row.status,
    applied: row.status === 'applied',
    note: row.note,
    natural_key: row.natural_key,
    raised_at: row.raised_at.toISOString(),
    status_changed_at: iso(row.status_changed_at),
    resolved_at: iso(row.resolved_at),
  }
}

/** The insight if the caller may see it; otherwise the same not-found as a missing one. */
export async function visibleSeoInsight(read: ReadDb, orgId: number | null, insightId: number): Promise<SeoInsightRow> {
  let query = read.selectFrom('seo_insights').selectAll().where('id', '=', insightId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('seo insight', insightId)
  return row
}

export interface InsightFilter {
  readonly insightType?: InsightType | undefined
  readonly source?: InsightSource | undefined
  /** true: applied only; false: not applied (open or dismissed). */
  readonly applied?: boolean | undefined
  /** One status; absent: every insight that still holds (open, applied, dismissed). */
  readonly status?: InsightStatus | undefined
}

const SEVERITY_ORDER = sql<number>`case severity when 'high' then 0 when 'medium' then 1 else 2 end`

/** A client's insights, most severe first, then newest. */
export async function seoInsightsOfClient(read: ReadDb, clientId: number, filter: InsightFilter, page: Page): Promise<SeoInsightView[]> {
  let query = read.selectFrom('seo_insights').selectAll().where('client_id', '=', clientId)
  query = filter.status ? query.where('status', '=', filter.status) : query.where('status', '<>', 'resolved')
  if (filter.applied === true) query = query.where('status', '=', 'applied')
  if (filter.applied === false) query = query.where('status', '<>', 'applied')
  if (filter.insightType) query = query.where('insight_type', '=', filter.insightType)
  if (filter.source) query = query.where('source', '=', filter.source)
  const rows = await query
    .orderBy(SEVERITY_ORDER)
    .orderBy('raised_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(seoInsightView)
}

/** Counts of the client's insights that hold, by status (a refresh's answer). */
export async function liveInsightCounts(read: ReadDb, clientId: number): Promise<Record<'open' | 'applied' | 'dismissed', number>> {
  const rows = await read
    .selectFrom('seo_insights')
    .select(['status', sql<number>`count(*)::int`.as('count')])
    .where('client_id', '=', clientId)
    .where('status', '<>', 'resolved')
    .groupBy('status')
    .execute()
  const counts = { open: 0, applied: 0, dismissed: 0 }
  for (const r of rows) if (r.status !== 'resolved') counts[r.status] = Number(r.count)
  return counts
}

/** A meta optimization as the API shows it. */
export interface MetaOptimizationView {
  id: number
  client_id: number
  page_id: number
  page_url: string
  insight_id: number | null
  query: string
  location: string
  current_title: string
  current_description: string
  proposed_title: string
  proposed_description: string
  writer: string
  status: MetaOptimizationStatus
  edit_id: number | null
  proposed_by: string
  rejected_by: string | null
  reject_reason: string | null
  created_at: string
  staged_at: string | null
  applied_at: string | null
  rejected_at: string | null
  rolled_back_at: string | null
}

export function metaOptimizationView(row: MetaOptimizationRow): MetaOptimizationView {
  return {
    id: row.id,
    client_id: row.client_id,
    page_id: row.page_id,
    page_url: row.page_url,
    insight_id: row.insight_id,
    query: row.query,
    location: row.location,
    current_title: row.current_title,
    current_description: row.current_description,
    proposed_title: row.proposed_title,
    proposed_description: row.proposed_description,
    writer: row.writer,
    status: row.status,
    edit_id: row.edit_id,
    proposed_by: row.proposed_by,
    rejected_by: row.rejected_by,
    reject_reason: row.reject_reason,
    created_at: row.created_at.toISOString(),
    staged_at: iso(row.staged_at),
    applied_at: iso(row.applied_at),
    rejected_at: iso(row.rejected_at),
    rolled_back_at: iso(row.rolled_back_at),
  }
}

export async function visibleMetaOptimization(read: ReadDb, orgId: number | null, optimizationId: number): Promise<MetaOptimizationRow> {
  let query = read.selectFrom('meta_optimizations').selectAll().where('id', '=', optimizationId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('meta optimization', optimizationId)
  return row
}

/** A client's meta optimizations, newest first, optionally of one status. */
export async function metaOptimizationsOfClient(
  read: ReadDb,
  clientId: number,
  status: MetaOptimizationStatus | undefined,
  page: Page,
): Promise<MetaOptimizationView[]> {
  let query = read.selectFrom('meta_optimizations').selectAll().where('client_id', '=', clientId)
  if (status) query = query.where('status', '=', status)
  const rows = await query.orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute()
  return rows.map(metaOptimizationView)
}

export interface MetaOptimizationStats {
  client_id: number
  total: number
  by_status: Record<MetaOptimizationStatus, number>
  by_writer: Record<string, number>
  /** Distinct pages with an applied optimization (rolled-back ones not counted). */
  pages_optimized: number
  /** applied ÷ (applied + rolled_back + rejected): how many decided proposals went live; null before any was decided. */
  acceptance_rate: number | null
  applied_last_30_days: number
  last_proposed_at: string | null
  last_applied_at: string | null
}

/** get_meta_optimization_stats: the client's meta optimizations counted. `now`: the end of the last-30-days window. */
export async function metaOptimizationStats(read: ReadDb, clientId: number, now: Date): Promise<MetaOptimizationStats> {
  const since = new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000)
  const [byStatus, byWriter, totals] = await Promise.all([
    read
      .selectFrom('meta_optimizations')
      .select(['status', sql<number>`count(*)::int`.as('count')])
      .where('client_id', '=', clientId)
      .groupBy('status')
      .execute(),
    read
      .selectFrom('meta_optimizations')
      .select(['writer', sql<number>`count(*)::int`.as('count')])
      .where('client_id', '=', clientId)
      .groupBy('writer')
      .orderBy('writer')
      .execute(),
    read
      .selectFrom('meta_optimizations')
      .select([
        sql<number>`count(distinct page_id) filter (where status = 'applied')::int`.as('pages_optimized'),
        sql<number>`count(*) filter (where status = 'applied' and applied_at >= ${since})::int`.as('applied_recent'),
        sql<Date | null>`max(created_at)`.as('last_proposed_at'),
        sql<Date | null>`max(applied_at)`.as('last_applied_at'),
      ])
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow(),
  ])
  const by_status = Object.fromEntries(META_OPTIMIZATION_STATUSES.map((s) => [s, 0])) as Record<MetaOptimizationStatus, number>
  for (const r of byStatus) by_status[r.status] = Number(r.count)
  const decided = by_status.applied + by_status.rolled_back + by_status.rejected
  const asDate = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString())
  return {
    client_id: clientId,
    total: Object.values(by_status).reduce((a, b) => a + b, 0),
    by_status,
    by_writer: Object.fromEntries(byWriter.map((r) => [r.writer, Number(r.count)])),
    pages_optimized: Number(totals.pages_optimized),
    acceptance_rate: decided === 0 ? null : Number((by_status.applied / decided).toFixed(3)),
    applied_last_30_days: Number(totals.applied_recent),
    last_proposed_at: asDate(totals.last_proposed_at),
    last_applied_at: asDate(totals.last_applied_at),
  }
}

/** count_recent_meta_optimizations: optimizations of the page proposed at or after `since`, whatever became of them. */
export async function countRecentMetaOptimizations(read: ReadDb, clientId: number, pageId: number, since: Date): Promise<number> {
  const row = await read
    .selectFrom('meta_optimizations')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('client_id', '=', clientId)
    .where('page_id', '=', pageId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}
