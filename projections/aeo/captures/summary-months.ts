import { sql } from 'kysely'
import { arrayLiteral } from '../../array-literal.js'
import { executeWrite } from '../../live-write.js'
import type { ReadDb } from '../../tables.js'
import { summaryCompetitorsQuery } from '../reports/summary-totals.js'

/**
 * Keeps aeo_summary_months (migrations/read-models/aeo-summary.ts) equal to the totals it is made of: after
 * the totals of some (client, month)s changed, each such row is rebuilt from aeo_summary_counts and
 * aeo_summary_competitors/spellings as they now are, or deleted when the month has no captures left. Being
 * rebuilt rather than adjusted, a row never depends on how many times or in which batches the changes came,
 * so the projector can rebuild once per batch what its events touched (projector.ts).
 */

/** Months whose totals changed: one month of a client, or (month null) every month the client has. */
export interface TouchedMonth {
  readonly clientId: number
  readonly month: string | null
}

/** Every distinct (client, month) the touched list names, a client's months resolved from its totals. */
async function resolve(db: ReadDb, touched: readonly TouchedMonth[]): Promise<{ clientIds: number[]; months: string[] }> {
  const pairs = new Map<string, { clientId: number; month: string }>()
  const add = (clientId: number, month: string) => pairs.set(`${clientId}/${month}`, { clientId, month })
  const wholeClients = [...new Set(touched.filter((t) => t.month === null).map((t) => t.clientId))]
  for (const t of touched) if (t.month !== null) add(t.clientId, t.month)
  if (wholeClients.length > 0) {
    // A month can lose its last captures (its row must go) or keep them (its row is rebuilt): both tables.
    const rows = await db
      .selectFrom('aeo_summary_counts')
      .select(['client_id', 'month'])
      .where('client_id', 'in', wholeClients)
      .union(db.selectFrom('aeo_summary_months').select(['client_id', 'month']).where('client_id', 'in', wholeClients))
      .execute()
    for (const row of rows) add(row.client_id, row.month)
  }
  const list = [...pairs.values()]
  return { clientIds: list.map((p) => p.clientId), months: list.map((p) => p.month) }
}

/** Rebuilds (or deletes) the aeo_summary_months rows of the touched months. */
export async function refreshSummaryMonths(db: ReadDb, touched: readonly TouchedMonth[]): Promise<void> {
  if (touched.length === 0) return
  const { clientIds, months } = await resolve(db, touched)
  if (clientIds.length === 0) return
  const asked = () =>
    sql<{ client_id: number; month: string }>`unnest(${arrayLiteral(clientIds)}::bigint[], ${arrayLiteral(months)}::text[])`.as<'t'>(
      sql`t(client_id, month)`,
    )
  const competitors = summaryCompetitorsQuery(db, sql.ref<number>('t.client_id'), sql.ref<string>('t.month')).as('x')
  await executeWrite(
    db,
    db
      .insertInto('aeo_summary_months')
      .columns(['client_id', 'month', 'query_ids', 'counts', 'competitors'])
      .expression(
        db
          .selectFrom(asked())
          .innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('aeo_summary_counts as k')
                .select([
                  sql<number[]>`array_agg(distinct k.query_id)`.as('query_ids'),
                  sql<string>`json_agg(json_build_array(k.query_id, k.engine, k.captures, k.present, k.named_first, k.mentioned) order by k.query_id, k.engine)`.as(
                    'counts',
                  ),
                ])
                .whereRef('k.client_id', '=', 't.client_id')
                .whereRef('k.month', '=', 't.month')
                .as('c'),
            (join) => join.onTrue(),
          )
          .select((eb) => [
            't.client_id',
            't.month',
            'c.query_ids',
            'c.counts',
            eb
              .selectFrom(competitors)
              .select(
                sql<string>`coalesce(json_agg(json_build_object('name', x.name, 'mentions', x.mentions) order by x.mentions desc, x.name_key), '[]')`.as(
                  'list',
                ),
              )
              .$asScalar()
              .as('competitors'),
          ])
          // A month without totals has no row: the delete below takes away one it had.
          .where('c.counts', 'is not', null),
      )
      .onConflict((oc) =>
        oc.columns(['client_id', 'month']).doUpdateSet({
          query_ids: sql`excluded.query_ids`,
          counts: sql`excluded.counts`,
          competitors: sql`excluded.competitors`,
        }),
      ),
  )
  await executeWrite(
    db,
    db
      .deleteFrom('aeo_summary_months as m')
      .using(asked())
      .whereRef('m.client_id', '=', 't.client_id')
      .whereRef('m.month', '=', 't.month')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('aeo_summary_counts as k')
              .select(sql.lit(1).as('one'))
              .whereRef('k.client_id', '=', 't.client_id')
              .whereRef('k.month', '=', 't.month'),
          ),
        ),
      ),
  )
}
