import { CompiledQuery, sql, type SqlBool } from 'kysely'
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres'
import { summarizeRates, type CaptureCounts } from '../../../domain/aeo/summary/summary.js'
import { namedStatement } from '../../../commands/named-statements.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import { cadenceQuery, openItemsByTierQuery, queueCountsQuery, toCadenceView, toOpenItemsByTier, toQueueCounts } from './queries.js'
import type { AeoSummary } from './report-data.js'
import { monthOfDate } from '../../../domain/shared/months.js'
import { SummaryAnswers } from './summary-answers.js'
import type { SummaryMonthCount } from '../tables.js'

/* Stand-ins for the per-call values while the statement is built; summaryStatement maps them to parameters. */
const CLIENT_IDS = '\u0000client ids'
const REQUESTED = '\u0000requested'
const ORG = -7_700_002
const CURRENT = '\u0000current'

interface SummaryRow {
  asked: string | null
  id: number
  month: string
  previous_month: string | null
  months: string[]
  counts: SummaryMonthCount[] | null
  previous_counts: SummaryMonthCount[] | null
  /** The current service of each question the counts name, when it has one. */
  services: Record<string, string>
  competitors: { name: string; mentions: number }[] | null
  open_items: { tier: string; n: number }[]
  queue: { status: string; n: number }[]
  cadence: { enabled: boolean; samples_per_month: number; engines: string[]; geo_state: string | null } | null
}

/**
 * get_aeo_summary's statement, for many summaries of one organization at once: for each asked (client,
 * month), `unnest`ed from two array parameters, the client (visible to the caller, else no row: not found
 * like visibleClient), its months with captures, the month resolved as resolveMonth does (the one asked for,
 * else the latest with captures, else the current one) and the previous month with captures; the two months'
 * rows of aeo_summary_months (counts per question and engine, the month's competitors, kept by the captures
 * projector: projections/aeo/captures/summary-months.ts) with the current service of the questions they
 * name; and the open items, queue and cadence as JSON. Every part is an index lookup on small rows; the
 * grouping by service and engine is summarizeRates's, in toSummary.
 *
 * Concurrent summaries of different clients (read-api/rpc/aeo/summary-read.ts) so cost one round trip, one
 * executor start and one wake-up of the backend instead of one each. Built once per read handle (the handle
 * names the schema) and run as a named statement (commands/named-statements.ts): planning it takes
 * PostgreSQL about 0.6 ms (EXPLAIN ANALYZE), a third of running it for twenty clients, and kysely's building
 * and compiling it was the largest share of the request's Node time. `parameters` maps a call's values onto
 * the stand-ins.
 */
const summaryStatements = new WeakMap<
  ReadDb,
  { text: string; parameters: (clientIds: number[], requested: (string | null)[], orgId: number | null, current: string) => unknown[] }
>()
function summaryStatement(db: ReadDb) {
  let statement = summaryStatements.get(db)
  if (statement !== undefined) return statement
  const clientId = sql.ref<number>('ask.client_id')
  const month = sql.ref<string>('m.month')
  const asked = sql<{ client_id: number; requested: string | null }>`unnest(${CLIENT_IDS}::bigint[], ${REQUESTED}::text[])`.as<'ask'>(
    sql`ask(client_id, requested)`,
  )
  const compiled = db
    .selectFrom(asked)
    .innerJoin('clients as cl', 'cl.id', 'ask.client_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom(
            eb
              .selectFrom('aeo_summary_months')
              .select(sql<string[]>`coalesce(array_agg(month order by month), '{}')`.as('months'))
              .whereRef('client_id', '=', 'ask.client_id')
              .as('a'),
          )
          .innerJoinLateral(
            sql<{ month: string }>`(select coalesce(ask.requested, a.months[cardinality(a.months)], ${CURRENT}::text) as month)`.as('r'),
            (join) => join.onTrue(),
          )
          .select(['a.months', 'r.month', sql<string | null>`(select max(p) from unnest(a.months) as p where p < r.month)`.as('previous')])
          // Kept a subquery of its own (PostgreSQL does not pull up one with an OFFSET): pulled up, its month
          // and previous month were expressions the joins below re-evaluated per candidate row, as join
          // filters, instead of values their index scans look up once.
          .modifyEnd(sql`offset 0`)
          .as('m'),
      (join) => join.onTrue(),
    )
    .leftJoin('aeo_summary_months as cur', (join) => join.onRef('cur.client_id', '=', 'ask.client_id').onRef('cur.month', '=', 'm.month'))
    .leftJoin('aeo_summary_months as prv', (join) =>
      join.onRef('prv.client_id', '=', 'ask.client_id').onRef('prv.month', '=', 'm.previous'),
    )
    .select((eb) => [
      'ask.requested as asked',
      'cl.id',
      'm.month',
      'm.months',
      'm.previous as previous_month',
      sql<SummaryMonthCount[] | null>`cur.counts`.as('counts'),
      sql<SummaryMonthCount[] | null>`prv.counts`.as('previous_counts'),
      sql<{ name: string; mentions: number }[] | null>`cur.competitors`.as('competitors'),
      eb
        .selectFrom('aeo_queries as q')
        .select(sql<Record<string, string>>`coalesce(json_object_agg(q.id, q.service), '{}')`.as('services'))
        .where(sql<SqlBool>`q.id = any(cur.query_ids || prv.query_ids) and q.service is not null`)
        .$asScalar()
        .$notNull()
        .as('services'),
      jsonArrayFrom(openItemsByTierQuery(db, clientId)).as('open_items'),
      jsonArrayFrom(queueCountsQuery(db, clientId, month)).as('queue'),
      jsonObjectFrom(cadenceQuery(db, clientId)).as('cadence'),
    ])
    .where(sql<SqlBool>`(${ORG}::bigint is null or cl.org_id = ${ORG}::bigint)`)
    .compile()
  const template = compiled.parameters
  for (const standIn of [CLIENT_IDS, REQUESTED, CURRENT, ORG]) {
    if (!template.includes(standIn)) throw new Error(`get_aeo_summary: no parameter for ${JSON.stringify(standIn)} in ${compiled.sql}`)
  }
  statement = {
    // Each summary's row also as one JSON text, which loadVisibleSummaries compares with the row of the answer
    // it built before (summary-answers.ts) and parses only when it differs.
    text: namedStatement(`select x.asked, x.id, row_to_json(x)::text as row from (${compiled.sql}) as x`),
    parameters: (clientIds, requested, orgId, current) =>
      template.map((p) => (p === CLIENT_IDS ? clientIds : p === REQUESTED ? requested : p === ORG ? orgId : p === CURRENT ? current : p)),
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
 * Asks that are the same share one answer object, and so do later calls while its row stays the same
 * (summary-answers.ts): an answer must not be changed.
 */
export async function loadVisibleSummaries(
  db: ReadDb,
  orgId: number | null,
  asks: readonly SummaryAsk[],
  now: Date,
): Promise<(AeoSummary | undefined)[]> {
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
        monthOfDate(now),
      ),
    ) as CompiledQuery<{ asked: string | null; id: number; row: string }>,
  )
  let answers = summaryAnswers.get(db)
  if (!answers) {
    answers = new SummaryAnswers()
    summaryAnswers.set(db, answers)
  }
  const summaries = new Map<string, AeoSummary>()
  for (const row of rows) {
    const key = askKey(row.id, row.asked)
    summaries.set(
      key,
      answers.of(key, row.row, (text) => toSummary(JSON.parse(text) as SummaryRow)),
    )
  }
  return asks.map((a) => summaries.get(askKey(a.clientId, a.requested)))
}

const summaryAnswers = new WeakMap<ReadDb, SummaryAnswers<AeoSummary>>()

/** get_aeo_summary for a client visible in `orgId` (null: any organization), in one round trip. */
export async function loadVisibleSummary(
  db: ReadDb,
  orgId: number | null,
  clientId: number,
  requested: string | undefined,
  now: Date,
): Promise<AeoSummary> {
  const [summary] = await loadVisibleSummaries(db, orgId, [{ clientId, requested }], now)
  if (!summary) throw new NotFoundError('client', clientId)
  return summary
}

function toSummary(row: SummaryRow): AeoSummary {
  const counts: CaptureCounts[] = []
  const add = (month: string, rows: readonly SummaryMonthCount[]) => {
    for (const [queryId, engine, captures, present, namedFirst, mentioned] of rows) {
      counts.push({ month, service: row.services[queryId] ?? '', engine, captures, present, namedFirst, mentioned })
    }
  }
  add(row.month, row.counts ?? [])
  if (row.previous_month !== null) add(row.previous_month, row.previous_counts ?? [])
  const rates = summarizeRates({ month: row.month, previousMonth: row.previous_month, counts, competitors: row.competitors ?? [] })
  // Field by field, not `...rates`: spreading was a measurable share of the answer's build (domain/aeo/summary/summary.ts).
  return {
    client_id: row.id,
    month: rates.month,
    previous_month: rates.previous_month,
    captures: rates.captures,
    overall: rates.overall,
    services: rates.services,
    engines: rates.engines,
    share_of_voice: rates.share_of_voice,
    months: row.months,
    open_items: toOpenItemsByTier(row.open_items),
    queue: toQueueCounts(row.queue),
    cadence: toCadenceView(row.cadence),
  }
}
