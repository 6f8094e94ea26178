import { sql, type Expression, type SqlBool } from 'kysely'
import type { CaptureCounts } from '../../../domain/aeo/summary/summary.js'
import type { ReportItem, ReportSource } from '../../../domain/aeo/reports/html.js'
import type { Branding } from '../../../domain/organizations/branding.js'
import type { ReadDb } from '../../tables.js'

/**
 * Reads behind get_aeo_summary, aeo_report_html and file_aeo_report. They read the captures part's
 * `report_json` by contract (scorecard.present, scorecard.named_first, scorecard.position, entity_table[].name,
 * source_table[].{domain, class, count}) defensively: a field of another type counts as absent, never as an
 * error, so an analysis version with a changed shape degrades a report instead of breaking it.
 */

/*
 * report_json is large enough to be TOASTed (compressed, out of line), and PostgreSQL detoasts it again for
 * every expression that reads it: five reads per capture made captureCounts cost about 90 µs per capture row
 * (EXPLAIN ANALYZE, 60 captures: 5.6 ms of 5.7). So each query reads report_json once per row, in a lateral
 * subquery (`offset 0` keeps the planner from inlining it back into every expression), and the expressions
 * read the small part that subquery took out.
 */

/** `r.sc`: the capture's scorecard, taken out of report_json once per row. */
const scorecardOnce = sql<{ sc: unknown }>`lateral (select c.report_json -> 'scorecard' as sc offset 0)`.as('r')

const isTrue = (key: string) => sql<SqlBool>`(r.sc -> ${key}::text) = 'true'::jsonb`

/** The answer names the client: it has a position among named businesses, or is named first. */
const mentioned = sql<SqlBool>`(jsonb_typeof(r.sc -> 'position') = 'number' or (r.sc -> 'named_first') = 'true'::jsonb)`

/**
 * The elements of a report_json array (an empty set when it is missing or not an array), with report_json
 * read once per capture row (the array taken out in a lateral subquery, see above).
 */
const elementsOf = (key: string) =>
  sql`lateral (select c.report_json -> ${key} as a offset 0) as once_${sql.raw(key)} cross join lateral jsonb_array_elements(case when jsonb_typeof(once_${sql.raw(key)}.a) = 'array' then once_${sql.raw(key)}.a else '[]'::jsonb end)`

/** Distinct months with captures, ascending. */
export async function captureMonths(db: ReadDb, clientId: number): Promise<string[]> {
  const rows = await db.selectFrom('aeo_captures').select('month').distinct().where('client_id', '=', clientId).orderBy('month').execute()
  return rows.map((r) => r.month)
}

/** Capture counts per (month, service, engine) for the given months. */
export async function captureCounts(db: ReadDb, clientId: number, months: readonly string[]): Promise<CaptureCounts[]> {
  if (months.length === 0) return []
  const rows = await db
    .selectFrom('aeo_captures as c')
    .leftJoin('aeo_queries as q', 'q.id', 'c.query_id')
    .innerJoin(scorecardOnce, (join) => join.onTrue())
    .select([
      'c.month',
      sql<string>`coalesce(q.service, '')`.as('service'),
      'c.engine',
      sql<number>`count(*)::int`.as('captures'),
      sql<number>`(count(*) filter (where ${isTrue('present')}))::int`.as('present'),
      sql<number>`(count(*) filter (where ${isTrue('named_first')}))::int`.as('named_first'),
      sql<number>`(count(*) filter (where ${mentioned}))::int`.as('mentioned'),
    ])
    .where('c.client_id', '=', clientId)
    .where('c.month', 'in', [...months])
    .groupBy(['c.month', sql`coalesce(q.service, '')`, 'c.engine'])
    .execute()
  return rows.map((r) => ({
    month: r.month,
    service: r.service,
    engine: r.engine,
    captures: r.captures,
    present: r.present,
    namedFirst: r.named_first,
    mentioned: r.mentioned,
  }))
}

/** Other businesses the month's answers name: answers naming each (case-insensitive), most first. */
export async function competitorMentions(db: ReadDb, clientId: number, month: string, limit = 50): Promise<{ name: string; mentions: number }[]> {
  const name = sql<string>`btrim(case jsonb_typeof(e.value) when 'string' then e.value #>> '{}' when 'object' then e.value ->> 'name' end)`
  const rows = await db
    .selectFrom(['aeo_captures as c', elementsOf('entity_table').as('e')])
    .select([
      sql<string>`mode() within group (order by ${name})`.as('name'),
      sql<number>`count(distinct c.id)::int`.as('mentions'),
    ])
    .where('c.client_id', '=', clientId)
    .where('c.month', '=', month)
    .where(sql<SqlBool>`coalesce(${name}, '') <> ''`)
    .groupBy(sql`lower(${name})`)
    .orderBy(sql`count(distinct c.id)`, 'desc')
    .orderBy(sql`lower(${name})`)
    .limit(limit)
    .execute()
  return rows
}

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

export async function openItemsByTier(db: ReadDb, clientId: number): Promise<OpenItemsByTier> {
  const rows = await db
    .selectFrom('aeo_items')
    .select(['tier', sql<number>`count(*)::int`.as('n')])
    .where('client_id', '=', clientId)
    .where('status', 'in', [...OPEN_ITEM_STATUSES])
    .groupBy('tier')
    .execute()
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
export async function queueCounts(db: ReadDb, clientId: number, month: string): Promise<QueueCounts> {
  const rows = await db
    .selectFrom('aeo_runs')
    .select(['status', sql<number>`count(*)::int`.as('n')])
    .where('client_id', '=', clientId)
    .where('month', '=', month)
    .groupBy('status')
    .execute()
  const counts = Object.fromEntries([...RUN_STATUSES, 'total'].map((s) => [s, 0])) as QueueCounts
  for (const row of rows) {
    if ((RUN_STATUSES as readonly string[]).includes(row.status)) counts[row.status as keyof QueueCounts] = row.n
    counts.total += row.n
  }
  return counts
}

export type CadenceView = { enabled: boolean; samples_per_month: number; engines: string[]; geo_state: string | null } | Record<string, never>

/** The client's cadence, or {} when it was never enrolled. */
export async function cadenceOf(db: ReadDb, clientId: number): Promise<CadenceView> {
  const row = await db
    .selectFrom('aeo_cadences')
    .select(['enabled', 'samples_per_month', 'engines', 'geo_state'])
    .where('client_id', '=', clientId)
    .executeTakeFirst()
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
