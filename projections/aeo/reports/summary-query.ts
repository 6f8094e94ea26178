import { CompiledQuery, sql, type SqlBool } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import { summarizeRates, type CaptureCounts } from '../../../domain/aeo/summary/summary.js'
import { namedStatement } from '../../../commands/named-statements.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import { cadenceQuery, openItemsByTierQuery, queueCountsQuery, toCadenceView, toOpenItemsByTier, toQueueCounts } from './queries.js'
import { monthOf, type AeoSummary } from './report-data.js'
import { summaryCompetitorsQuery, summaryCountsQuery } from './summary-totals.js'

/* Stand-ins for the per-call values while the statement is built; summaryStatement maps them to parameters. */
const CLIENT = -7_700_001
const ORG = -7_700_002
const REQUESTED = '\u0000requested'
const CURRENT = '\u0000current'

interface SummaryRow {
  id: number
  month: string
  previous_month: string | null
  months: string[]
  counts: CaptureCounts[]
  competitors: { name: string; mentions: number }[]
  open_items: { tier: string; n: number }[]
  queue: { status: string; n: number }[]
  cadence: { enabled: boolean; samples_per_month: number; engines: string[]; geo_state: string | null } | null
}

/**
 * get_aeo_summary's statement: the client (visible to the caller, else none: not found like visibleClient),
 * the month resolved as resolveMonth does (the one asked for, else the latest with captures, else the
 * current one) and the previous month with captures, in two CTEs, and beside them the months, the totals of
 * both months, the month's competitors, open items, queue and cadence as JSON. Every part is an index lookup
 * on small rows (the totals are kept by the captures projector).
 *
 * Built once per read handle (the handle names the schema) and run as a named statement
 * (commands/named-statements.ts): PostgreSQL spent about twice as long planning it as running it (EXPLAIN
 * ANALYZE over 12 months of totals: planning 0.44-0.56 ms, execution 0.22-0.35 ms), and kysely's building
 * and compiling it was the largest share of the request's Node time. `parameters` maps the stand-ins to a
 * call's values.
 */
const summaryStatements = new WeakMap<ReadDb, { text: string; parameters: (clientId: number, orgId: number | null, requested: string | null, current: string) => unknown[] }>()
function summaryStatement(db: ReadDb) {
  let statement = summaryStatements.get(db)
  if (statement !== undefined) return statement
  const clientId = CLIENT
  const month = sql<string>`(select month from sel)`
  const previous = sql<string | null>`(select month from prev)`
  const compiled = db
    .with('sel', (qb) =>
      qb
        .selectFrom('aeo_summary_counts')
        .select(sql<string>`coalesce(${REQUESTED}::text, max(month), ${CURRENT}::text)`.as('month'))
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
    .where(sql<SqlBool>`(${ORG}::bigint is null or cl.org_id = ${ORG}::bigint)`)
    .compile()
  const template = compiled.parameters
  if (!template.includes(REQUESTED) || !template.includes(CURRENT) || template.filter((p) => p === ORG).length !== 2) {
    throw new Error(`get_aeo_summary: unexpected parameters in ${compiled.sql}`)
  }
  statement = {
    text: namedStatement(compiled.sql),
    parameters: (clientId, orgId, requested, current) =>
      template.map((p) => (p === CLIENT ? clientId : p === ORG ? orgId : p === REQUESTED ? requested : p === CURRENT ? current : p)),
  }
  summaryStatements.set(db, statement)
  return statement
}

/** get_aeo_summary for a client visible in `orgId` (null: any organization), in one round trip. */
export async function loadVisibleSummary(db: ReadDb, orgId: number | null, clientId: number, requested: string | undefined, now: Date): Promise<AeoSummary> {
  const statement = summaryStatement(db)
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(statement.text, statement.parameters(clientId, orgId, requested ?? null, monthOf(now))) as CompiledQuery<SummaryRow>,
  )
  const row = rows[0]
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
