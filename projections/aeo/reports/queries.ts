import { sql, type Expression, type SqlBool } from 'kysely'
import type { ReportItem, ReportSource } from '../../../domain/aeo/reports/html.js'
import type { Branding } from '../../../domain/organizations/branding.js'
import type { ReadDb } from '../../tables.js'
import { elementsOf } from '../captures/report-json.js'

/**
 * Reads behind aeo_report_html and file_aeo_report (the summary's are in summary-query.ts). They read the
 * captures' report_json through ../captures/report-json.ts.
 */

/** The domains the month's answers cited (retrieved-only rows left out), most citations first. */
export async function citedSources(db: ReadDb, clientId: number, month: string, limit = 25): Promise<ReportSource[]> {
  const domain = sql<string>`lower(btrim(s.value ->> 'domain'))`
  const count = sql<number>`case when jsonb_typeof(s.value -> 'count') = 'number' then (s.value ->> 'count')::numeric else 1 end`
  const rows = await db
    .selectFrom(['aeo_captures as c', elementsOf('source_table').as('s')])
    .select([
      domain.as('domain'),
      sql<string>`coalesce(mode() within group (order by s.value ->> 'class'), 'other')`.as('class'),
      sql<number>`sum(${count})::int`.as('citations'),
      sql<number>`count(distinct c.id)::int`.as('answers'),
    ])
    .where('c.client_id', '=', clientId)
    .where('c.month', '=', month)
    // Rows with a zero count are sources the engine retrieved but did not cite: not in this table.
    .where(sql<SqlBool>`jsonb_typeof(s.value) = 'object' and coalesce(${domain}, '') <> '' and ${count} > 0`)
    .groupBy(domain as Expression<string>)
    .orderBy('citations', 'desc')
    .orderBy('domain')
    .limit(limit)
    .execute()
  return rows
}

export const OPEN_ITEM_STATUSES = ['open', 'in_progress'] as const

/** Open and in-progress tracker items, tier A to X, then title. */
export async function openItems(db: ReadDb, clientId: number): Promise<ReportItem[]> {
  return db
    .selectFrom('aeo_items')
    .select(['tier', 'title', 'status', 'evidence'])
    .where('client_id', '=', clientId)
    .where('status', 'in', [...OPEN_ITEM_STATUSES])
    .orderBy('tier')
    .orderBy('title')
    .orderBy('id')
    .execute()
}

export interface OpenItemsByTier {
  A: number
  B: number
  C: number
  X: number
  total: number
}

/** Open items per tier (summary-query.ts nests it in its statement). */
export function openItemsByTierQuery(db: ReadDb, clientId: number | Expression<number>) {
  return db
    .selectFrom('aeo_items')
    .select(['tier', sql<number>`count(*)::int`.as('n')])
    .where('client_id', '=', clientId)
    .where('status', 'in', [...OPEN_ITEM_STATUSES])
    .groupBy('tier')
}

export function toOpenItemsByTier(rows: readonly { tier: string; n: number }[]): OpenItemsByTier {
  const counts: OpenItemsByTier = { A: 0, B: 0, C: 0, X: 0, total: 0 }
  for (const row of rows) {
    if (row.tier in counts) counts[row.tier as 'A' | 'B' | 'C' | 'X'] = row.n
    counts.total += row.n
  }
  return counts
}

export const RUN_STATUSES = ['queued', 'claimed', 'running', 'done', 'failed', 'cancelled'] as const
export type QueueCounts = Record<(typeof RUN_STATUSES)[number] | 'total', number>

/** The month's runs by status. */
export function queueCountsQuery(db: ReadDb, clientId: number | Expression<number>, month: string | Expression<string | null>) {
  return db
    .selectFrom('aeo_runs')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('client_id', '=', clientId)
    .where('month', '=', typeof month === 'string' ? sql<string>`${month}::text` : month)
    .groupBy('status')
}

export function toQueueCounts(rows: readonly { status: string; n: number }[]): QueueCounts {
  const counts = Object.fromEntries([...RUN_STATUSES, 'total'].map((s) => [s, 0])) as QueueCounts
  for (const row of rows) {
    if ((RUN_STATUSES as readonly string[]).includes(row.status)) counts[row.status as keyof QueueCounts] = row.n
    counts.total += row.n
  }
  return counts
}

export type CadenceView =
  | { enabled: boolean; samples_per_month: number; engines: string[]; geo_state: string | null }
  | Record<string, never>

export function cadenceQuery(db: ReadDb, clientId: number | Expression<number>) {
  return db.selectFrom('aeo_cadences').select(['enabled', 'samples_per_month', 'engines', 'geo_state']).where('client_id', '=', clientId)
}

/** The client's cadence, or {} when it was never enrolled. */
export function toCadenceView(
  row: { enabled: boolean; samples_per_month: number; engines: readonly string[]; geo_state: string | null } | undefined | null,
): CadenceView {
  if (!row) return {}
  return { enabled: row.enabled, samples_per_month: row.samples_per_month, engines: [...row.engines], geo_state: row.geo_state }
}

/** The organization's name and branding (null fields when not set). */
export async function brandingOf(db: ReadDb, orgId: number): Promise<{ name: string; branding: Branding } | undefined> {
  const row = await db
    .selectFrom('organizations')
    .select(['name', 'brand_name', 'logo_url', 'accent_color'])
    .where('id', '=', orgId)
    .executeTakeFirst()
  if (!row) return undefined
  return { name: row.name, branding: { name: row.brand_name, logo_url: row.logo_url, accent_color: row.accent_color } }
}

export interface FiledReportRow {
  month: string
  path: string
  content_type: string
  bytes: number
  sha256: string
  filed_at: string
}

/** Filed reports of a client, newest month first. */
export async function filedReports(db: ReadDb, clientId: number): Promise<FiledReportRow[]> {
  const rows = await db
    .selectFrom('aeo_reports')
    .select(['month', 'path', 'content_type', 'bytes', 'sha256', 'filed_at'])
    .where('client_id', '=', clientId)
    .orderBy('month', 'desc')
    .orderBy('path')
    .execute()
  return rows.map((r) => ({ ...r, filed_at: r.filed_at.toISOString() }))
}
