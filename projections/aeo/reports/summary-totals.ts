import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { CaptureCounts } from '../../../domain/aeo/summary/summary.js'
import type { ReadDb } from '../../tables.js'

/**
 * Reads of the get_aeo_summary totals that the captures projector keeps (aeo_summary_*,
 * projections/aeo/captures/summary-totals.ts): the same answers that aggregating every capture's report_json
 * gave, from a few small rows per client and month. Each is a query builder, so that summary-query.ts can
 * nest it into its one statement and the report page can run it on its own.
 */

/** A month list for `in`: values, or expressions (summary-query.ts's resolved months). */
const monthList = (months: readonly (string | Expression<string | null>)[]): RawBuilder<unknown> =>
  sql`(${sql.join(months.map((m) => (typeof m === 'string' ? sql`${m}::text` : m)))})`

/** Capture counts per (month, current service of the question, engine) for the given months. */
export function summaryCountsQuery(db: ReadDb, clientId: number, months: readonly (string | Expression<string | null>)[]) {
  const service = sql<string>`coalesce(q.service, '')`
  return db
    .selectFrom('aeo_summary_counts as k')
    .leftJoin('aeo_queries as q', 'q.id', 'k.query_id')
    .select([
      'k.month',
      service.as('service'),
      'k.engine',
      sql<number>`sum(k.captures)::int`.as('captures'),
      sql<number>`sum(k.present)::int`.as('present'),
      sql<number>`sum(k.named_first)::int`.as('namedFirst'),
      sql<number>`sum(k.mentioned)::int`.as('mentioned'),
    ])
    .where('k.client_id', '=', clientId)
    .where(sql<SqlBool>`k.month in ${monthList(months)}`)
    .groupBy(['k.month', service, 'k.engine'])
}

export async function summaryCounts(db: ReadDb, clientId: number, months: readonly string[]): Promise<CaptureCounts[]> {
  if (months.length === 0) return []
  return summaryCountsQuery(db, clientId, months).execute()
}

/**
 * Other businesses the month's answers name: answers naming each (names compared case-insensitively), most
 * first, then by lower(name); each shown in its commonest spelling, ties to the first in sort order (what
 * mode() over the entity rows gives).
 */
export function summaryCompetitorsQuery(db: ReadDb, clientId: number, month: string | Expression<string | null>, limit = 50) {
  return db
    .selectFrom('aeo_summary_competitors as k')
    .select((eb) => [
      eb
        .selectFrom('aeo_summary_spellings as s')
        .select('s.spelling')
        .whereRef('s.client_id', '=', 'k.client_id')
        .whereRef('s.month', '=', 'k.month')
        .whereRef('s.name_key', '=', 'k.name_key')
        .orderBy('s.n', 'desc')
        .orderBy('s.spelling')
        .limit(1)
        .$asScalar()
        .$notNull()
        .as('name'),
      'k.answers as mentions',
      'k.name_key',
    ])
    .where('k.client_id', '=', clientId)
    .where('k.month', '=', typeof month === 'string' ? sql<string>`${month}::text` : month)
    .orderBy('k.answers', 'desc')
    .orderBy('k.name_key')
    .limit(limit)
}

export async function summaryCompetitors(db: ReadDb, clientId: number, month: string, limit = 50): Promise<{ name: string; mentions: number }[]> {
  const rows = await summaryCompetitorsQuery(db, clientId, month, limit).execute()
  return rows.map((r) => ({ name: r.name, mentions: r.mentions }))
}

/** Distinct months with captures, ascending (a client's totals have a row for every month with a capture). */
export async function summaryMonths(db: ReadDb, clientId: number): Promise<string[]> {
  const rows = await db.selectFrom('aeo_summary_counts').select('month').distinct().where('client_id', '=', clientId).orderBy('month').execute()
  return rows.map((r) => r.month)
}
