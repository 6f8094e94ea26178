import { sql, type SqlBool } from 'kysely'
import type { CaptureCounts } from '../../domain/aeo/summary/summary.js'
import { elementsOf, entityName, isTrue, mentioned, scorecardOnce } from '../../projections/aeo/captures/report-json.js'
import type { ReadDb } from '../../projections/tables.js'

/**
 * The summary reads as they were before the totals (aggregating every capture's report_json at read time),
 * kept only as the oracle that test/projections/aeo-summary-totals.test.ts compares the totals with.
 */

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
export async function competitorMentions(
  db: ReadDb,
  clientId: number,
  month: string,
  limit = 50,
): Promise<{ name: string; mentions: number }[]> {
  const name = entityName
  const rows = await db
    .selectFrom(['aeo_captures as c', elementsOf('entity_table').as('e')])
    .select([sql<string>`mode() within group (order by ${name})`.as('name'), sql<number>`count(distinct c.id)::int`.as('mentions')])
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
