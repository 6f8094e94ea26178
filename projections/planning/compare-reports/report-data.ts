import { sql } from 'kysely'
import type { ActionItemStatus } from '../../../domain/planning/action-items/events.js'
import type { CompareMonthNumbers, CompareSummary } from '../../../domain/planning/compare-reports/events.js'
import type { CompareItemLine, CompareReportInput } from '../../../domain/planning/compare-reports/html.js'
import { addMonths, daysOf } from '../../../domain/shared/months.js'
import { movers, rankNumbers } from '../../../domain/planning/compare-reports/numbers.js'
import { brandingOf } from '../../aeo/reports/queries.js'
import { summaryCounts } from '../../aeo/reports/summary-totals.js'
import type { ClientRow } from '../../clients/queries.js'
import { gscSnapshot } from '../../search/gsc/queries.js'
import type { ReadDb } from '../../tables.js'

/**
 * What a compare report shows, gathered from the other areas' read models: positions (keyword_ranks),
 * Search Console (the same day-by-day coverage get_gsc_snapshot reads), AI Visibility (the counts
 * get_aeo_summary reads), site changes and the month's action items.
 */

/** Each keyword's best position on its latest check of the month (null: checked, not in the top 100). */
export async function monthPositions(db: ReadDb, clientId: number, month: string): Promise<Map<number, number | null>> {
  const { start, end } = daysOf(month)
  const rows = await db
    .with('latest', (qb) =>
      qb
        .selectFrom('keyword_ranks')
        .select(['keyword_id', sql<string>`max(rank_date)`.as('rank_date')])
        .where('client_id', '=', clientId)
        .where('rank_date', '>=', start)
        .where('rank_date', '<=', end)
        .groupBy('keyword_id'),
    )
    .selectFrom('latest as l')
    .innerJoin('keyword_ranks as r', (join) => join.onRef('r.keyword_id', '=', 'l.keyword_id').onRef('r.rank_date', '=', 'l.rank_date'))
    .innerJoin('keywords as k', 'k.id', 'l.keyword_id')
    .where('k.status', '<>', 'deleted')
    .select(['l.keyword_id', sql<number | null>`min(r.position)`.as('position')])
    .groupBy('l.keyword_id')
    .execute()
  return new Map(rows.map((r) => [Number(r.keyword_id), r.position === null ? null : Number(r.position)]))
}

async function keywordNames(db: ReadDb, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('keywords')
    .select(['id', 'keyword'])
    .where('id', 'in', [...ids])
    .execute()
  return new Map(rows.map((r) => [Number(r.id), r.keyword]))
}

async function siteChangeCount(db: ReadDb, clientId: number, month: string): Promise<number> {
  const row = await db
    .selectFrom('site_changes')
    .select(sql<string>`count(*)`.as('n'))
    .where('client_id', '=', clientId)
    .where('detected_at', '>=', new Date(`${month}-01T00:00:00Z`))
    .where('detected_at', '<', new Date(`${addMonths(month, 1)}-01T00:00:00Z`))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function itemCounts(db: ReadDb, clientId: number, month: string) {
  const row = await db
    .selectFrom('action_items')
    .select([
      sql<string>`count(*)`.as('planned'),
      sql<string>`count(*) filter (where status = 'done')`.as('done'),
      sql<string>`count(*) filter (where carried_from_item_id is not null)`.as('carried'),
    ])
    .where('client_id', '=', clientId)
    .where('month', '=', month)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow()
  return { items_planned: Number(row.planned), items_done: Number(row.done), items_carried: Number(row.carried) }
}

/** The month's items done, and those still open, tier then impact (highest first) then id; `limit` each. */
export async function itemLines(
  db: ReadDb,
  clientId: number,
  month: string,
  limit = 50,
): Promise<{ done: CompareItemLine[]; open: CompareItemLine[] }> {
  const lines = (statuses: readonly ActionItemStatus[]) =>
    db
      .selectFrom('action_items')
      .select(['tier', 'action_type', 'description', 'page_url', 'status'])
      .where('client_id', '=', clientId)
      .where('month', '=', month)
      .where('deleted_at', 'is', null)
      .where('status', 'in', [...statuses])
      .orderBy('tier')
      .orderBy(sql`impact desc nulls last`)
      .orderBy('id')
      .limit(limit)
      .execute()
  const [done, open] = await Promise.all([lines(['done']), lines(['pending', 'in_progress'])])
  return { done, open }
}

async function gscTotals(db: ReadDb, clientId: number, month: string): Promise<{ clicks: number; impressions: number }> {
  const snapshot = await gscSnapshot(db, clientId, daysOf(month), 'site', 1)
  return { clicks: snapshot.totals.current.clicks, impressions: snapshot.totals.current.impressions }
}

async function aiCounts(db: ReadDb, clientId: number, month: string): Promise<{ ai_answers: number; ai_present: number }> {
  const rows = await summaryCounts(db, clientId, [month])
  return { ai_answers: rows.reduce((n, r) => n + r.captures, 0), ai_present: rows.reduce((n, r) => n + r.present, 0) }
}

/** One month's numbers; `positions` read already (the movers need them too). */
async function monthNumbers(
  db: ReadDb,
  clientId: number,
  month: string,
  positions: ReadonlyMap<number, number | null>,
): Promise<CompareMonthNumbers> {
  const [gsc, ai, changes, items] = await Promise.all([
    gscTotals(db, clientId, month),
    aiCounts(db, clientId, month),
    siteChangeCount(db, clientId, month),
    itemCounts(db, clientId, month),
  ])
  return { ...rankNumbers([...positions.values()]), ...gsc, ...ai, site_changes: changes, ...items }
}

/** Everything the page shows for `month` against `againstMonth`. */
export async function loadCompareReportInput(
  db: ReadDb,
  client: ClientRow,
  month: string,
  againstMonth: string,
  now: Date,
): Promise<CompareReportInput> {
  const [after, before, org, items] = await Promise.all([
    monthPositions(db, client.id, month),
    monthPositions(db, client.id, againstMonth),
    brandingOf(db, client.org_id),
    itemLines(db, client.id, month),
  ])
  const [current, against] = await Promise.all([
    monthNumbers(db, client.id, month, after),
    monthNumbers(db, client.id, againstMonth, before),
  ])
  const summary: CompareSummary = { month: current, against }
  const names = await keywordNames(
    db,
    [...after.keys()].filter((id) => before.has(id)),
  )
  return {
    brand: { name: org?.branding.name ?? org?.name ?? 'RankRelay', accent_color: org?.branding.accent_color ?? null },
    client: { name: client.name, website_url: client.website_url },
    month,
    against_month: againstMonth,
    generated_at: now.toISOString(),
    summary,
    movers: movers(before, after, names),
    items,
  }
}
