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
 * get_aeo_summary's statement, for many summaries of one organization at once: for each asked (client,
 * month) the client (visible to the caller, else no row: not found like visibleClient), the month resolved as
 * resolveMonth does (the one asked for, else the latest with captures, else the current one) and the
 * previous month with captures, in two CTEs, and beside them the months, the totals of both months, the
 * month's competitors, open items, queue and cadence as JSON. Every part is an index lookup on small rows (the
 * totals are kept by the captures projector).
 *
 * One client's summary is built with kysely, with stand-ins for the client and the month asked; it then runs
 * as a LATERAL subquery over `unnest(client ids, months asked)`, the stand-ins replaced by the unnested
 * columns, so that concurrent summaries of different clients (read-api/rpc/aeo/summary-read.ts) cost one
 * round trip, one executor start and one wake-up of the backend instead of one each.
 *
 * Built once per read handle (the handle names the schema) and run as a named statement
 * (commands/named-statements.ts): PostgreSQL spent about twice as long planning it as running it (EXPLAIN
 * ANALYZE over 12 months of totals: planning 0.44-0.56 ms, execution 0.22-0.35 ms), and kysely's building
 * and compiling it was the largest share of the request's Node time. `parameters` maps a call's values.
 */
const summaryStatements = new WeakMap<ReadDb, { text: string; parameters: (clientIds: number[], requested: (string | null)[], orgId: number | null, current: string) => unknown[] }>()
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
  // $1 and $2 are the unnested arrays; the client and month stand-ins become their columns, every other
  // parameter is renumbered after them.
  const kept: unknown[] = []
  const inner = compiled.sql.replace(/\$(\d+)\b/g, (_, n: string) => {
    const p = template[Number(n) - 1]
    if (p === CLIENT) return 'ask.client_id'
    if (p === REQUESTED) return 'ask.requested'
    kept.push(p)
    return `$${kept.length + 2}`
  })
  const text = `select ask.requested as asked, s.id, s.month, s.previous_month, s.months, s.counts, s.competitors, s.open_items, s.queue, s.cadence from unnest($1::bigint[], $2::text[]) as ask(client_id, requested) cross join lateral (${inner}) as s`
  statement = {
    text: namedStatement(text),
    parameters: (clientIds, requested, orgId, current) => [clientIds, requested, ...kept.map((p) => (p === ORG ? orgId : p === CURRENT ? current : p))],
  }
  summaryStatements.set(db, statement)
  return statement
}

/** What one summary is asked for: the client, and the month (undefined: the latest with captures). */
export interface SummaryAsk {
  readonly clientId: number
  readonly requested: string | undefined
}

const askKey = (clientId: number, requested: string | null | undefined) => `${clientId}/${requested ?? ''}`

/**
 * get_aeo_summary for each ask, of clients visible in `orgId` (null: any organization), in one round trip:
 * undefined for an ask whose client the caller may not see (visibleClient's not-found), in the order asked.
 * Asks that are the same share one answer object.
 */
export async function loadVisibleSummaries(db: ReadDb, orgId: number | null, asks: readonly SummaryAsk[], now: Date): Promise<(AeoSummary | undefined)[]> {
  const unique = new Map<string, SummaryAsk>()
  for (const ask of asks) unique.set(askKey(ask.clientId, ask.requested), ask)
  const statement = summaryStatement(db)
  const distinct = [...unique.values()]
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(
      statement.text,
      statement.parameters(
        distinct.map((a) => a.clientId),
        distinct.map((a) => a.requested ?? null),
        orgId,
        monthOf(now),
      ),
    ) as CompiledQuery<SummaryRow & { asked: string | null }>,
  )
  const summaries = new Map<string, AeoSummary>()
  for (const row of rows) summaries.set(askKey(row.id, row.asked), toSummary(row))
  return asks.map((a) => summaries.get(askKey(a.clientId, a.requested)))
}

/** get_aeo_summary for a client visible in `orgId` (null: any organization), in one round trip. */
export async function loadVisibleSummary(db: ReadDb, orgId: number | null, clientId: number, requested: string | undefined, now: Date): Promise<AeoSummary> {
  const [summary] = await loadVisibleSummaries(db, orgId, [{ clientId, requested }], now)
  if (!summary) throw new NotFoundError('client', clientId)
  return summary
}

function toSummary(row: SummaryRow): AeoSummary {
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
