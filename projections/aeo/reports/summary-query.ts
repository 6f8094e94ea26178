import { sql } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import { summarizeRates } from '../../../domain/aeo/summary/summary.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import { cadenceQuery, openItemsByTierQuery, queueCountsQuery, toCadenceView, toOpenItemsByTier, toQueueCounts } from './queries.js'
import { monthOf, type AeoSummary } from './report-data.js'
import { summaryCompetitorsQuery, summaryCountsQuery } from './summary-totals.js'

/**
 * get_aeo_summary in one statement: the client (visible to the caller, else not found like visibleClient),
 * the month resolved as resolveMonth does (the one asked for, else the latest with captures, else the
 * current one) and the previous month with captures, in two CTEs, and beside them the months, the totals of
 * both months, the month's competitors, open items, queue and cadence as JSON. One round trip instead of
 * eight; every part is an index lookup on small rows (the totals are kept by the captures projector).
 */
export async function loadVisibleSummary(db: ReadDb, orgId: number | null, clientId: number, requested: string | undefined, now: Date): Promise<AeoSummary> {
  const month = sql<string>`(select month from sel)`
  const previous = sql<string | null>`(select month from prev)`
  let query = db
    .with('sel', (qb) =>
      qb
        .selectFrom('aeo_summary_counts')
        .select(sql<string>`coalesce(${requested ?? null}::text, max(month), ${monthOf(now)}::text)`.as('month'))
        .where('client_id', '=', clientId),
    )
    .with('prev', (qb) =>
      qb
        .selectFrom('aeo_summary_counts')
        .select(sql<string | null>`max(month)`.as('month'))
        .where('client_id', '=', clientId)
        .where(sql<boolean>`month < (select month from sel)`),
    )
    .selectFrom('clients as cl')
    .select((eb) => [
      'cl.id',
      month.as('month'),
      previous.as('previous_month'),
      eb
        .selectFrom('aeo_summary_counts')
        .select(sql<string[]>`coalesce(array_agg(distinct month order by month), '{}')`.as('months'))
        .where('client_id', '=', clientId)
        .$asScalar()
        .$notNull()
        .as('months'),
      jsonArrayFrom(summaryCountsQuery(db, clientId, [month, previous])).as('counts'),
      jsonArrayFrom(summaryCompetitorsQuery(db, clientId, month)).as('competitors'),
      jsonArrayFrom(openItemsByTierQuery(db, clientId)).as('open_items'),
      jsonArrayFrom(queueCountsQuery(db, clientId, month)).as('queue'),
      jsonObjectFrom(cadenceQuery(db, clientId)).as('cadence'),
    ])
    .where('cl.id', '=', clientId)
  if (orgId !== null) query = query.where('cl.org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('client', clientId)
  const rates = summarizeRates({
    month: row.month,
    previousMonth: row.previous_month,
    counts: row.counts,
    competitors: row.competitors.map((c) => ({ name: c.name, mentions: c.mentions })),
  })
  return {
    client_id: row.id,
    ...rates,
    months: row.months,
    open_items: toOpenItemsByTier(row.open_items),
    queue: toQueueCounts(row.queue),
    cadence: toCadenceView(row.cadence),
  }
}
