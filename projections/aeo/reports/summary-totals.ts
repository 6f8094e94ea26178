import { sql, type Expression } from 'kysely'
import type { CaptureCounts } from '../../../domain/aeo/summary/summary.js'
import type { ReadDb } from '../../tables.js'

/**
 * Reads of the get_aeo_summary totals that the captures projector keeps (aeo_summary_*,
 * projections/aeo/captures/summary-totals.ts): the same answers that aggregating every capture's report_json
 * gave, from a few small rows per client and month. The report page reads them; the captures projector
 * also builds aeo_summary_months, what get_aeo_summary reads, with the competitors query
 * (../captures/summary-months.ts).
 */

/** Capture counts per (month, current service of the question, engine) for the given months. */
export async function summaryCounts(db: ReadDb, clientId: number, months: readonly string[]): Promise<CaptureCounts[]> {
  if (months.length === 0) return []
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
    .where('k.month', 'in', [...months])
    .groupBy(['k.month', service, 'k.engine'])
    .execute()
}

/**
 * Other businesses the month's answers name: answers naming each (names compared case-insensitively), most
 * first, then by lower(name); each shown in its commonest spelling, ties to the first in sort order (what
 * mode() over the entity rows gives).
 */
export function summaryCompetitorsQuery(
  db: ReadDb,
  clientId: number | Expression<number>,
  month: string | Expression<string | null>,
  limit = 50,
) {
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

export async function summaryCompetitors(
  db: ReadDb,
  clientId: number,
  month: string,
  limit = 50,
): Promise<{ name: string; mentions: number }[]> {
  const rows = await summaryCompetitorsQuery(db, clientId, month, limit).execute()
  return rows.map((r) => ({ name: r.name, mentions: r.mentions }))
}

/** Distinct months with captures, ascending (a client's totals have a row for every month with a capture). */
export async function summaryMonths(db: ReadDb, clientId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('aeo_summary_counts')
    .select('month')
    .distinct()
    .where('client_id', '=', clientId)
    .orderBy('month')
    .execute()
  return rows.map((r) => r.month)
}
