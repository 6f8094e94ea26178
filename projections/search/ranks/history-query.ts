import { CompiledQuery, sql } from 'kysely'
import { namedStatement } from '../../../commands/named-statements.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import type { ReadDb } from '../../tables.js'
import type { RankPoint } from './queries.js'

/* Stand-ins for the per-call values while the statement is built; historyStatement maps them to parameters. */
const KEYWORDS = '\u0000keywords'
const DEVICES = '\u0000devices'
const LOCATIONS = '\u0000locations'
const LIMITS = '\u0000limits'
const ORG = -7_700_202

/** What a location of an ask says to the statement: -1 the keyword's primary location, 0 national, else that location. */
const PRIMARY = -1

/** One chart read: a keyword's series (its primary location when `location` is undefined; null: national). */
export interface HistoryAsk {
  readonly keywordId: number
  readonly device: RankDevice
  readonly location: number | null | undefined
  readonly limit: number
}

export interface RankHistory {
  keyword_id: number
  keyword: string
  client_id: number
  location_id: number | null
  device: RankDevice
  points: RankPoint[]
}

const statements = new WeakMap<ReadDb, { text: string; parameters: (values: ReadonlyMap<unknown, unknown>) => unknown[] }>()

/**
 * get_rank_history's statement for any number of asks at once (unnest of one array per field, `with
 * ordinality` numbering them), built once per read handle (the handle names the schema) and run as a named
 * statement (commands/named-statements.ts). For each ask whose keyword the organization may see (else no
 * row: not found like visibleKeyword): the location of its series, the one asked for or its primary one; the
 * series' latest `limit + 1` rows by the primary key's index; and the whole answer as one JSON text, the
 * points oldest first with `change` from lead() over them newest first (the extra, older row gives the first point its
 * change, then is left out). PostgreSQL builds the answer, so the service parses one text per ask instead
 * of making objects of rows and points.
 *
 * The primary location is domain/search/ranks/series.ts's primaryLocationId written in SQL: the client's
 * current location whose name compares equal to the keyword's location as nameKey compares them (case and
 * runs of spaces ignored; both are stored trimmed), else its first, else none (national). A test holds the
 * two to the same answers (test/http/search-ranks.test.ts).
 */
function historyStatement(db: ReadDb) {
  let statement = statements.get(db)
  if (statement !== undefined) return statement
  // The handle's tables as it names them (its schema), for a statement written as SQL.
  const table = (name: 'keywords' | 'client_locations' | 'keyword_ranks') =>
    sql.raw(
      db
        .selectFrom(name)
        .selectAll()
        .compile()
        .sql.replace(/^select \* from /, ''),
    )
  const nameKey = (column: string) => sql`lower(regexp_replace(${sql.raw(column)}, '\\s+', ' ', 'g'))`
  const compiled = sql<{ n: number; answer: string }>`
    select a.n, json_build_object(
      'keyword_id', k.id, 'keyword', k.keyword, 'client_id', k.client_id, 'location_id', s.location_id, 'device', a.device,
      'points', coalesce(h.points, '[]'::json))::text as answer
    from unnest(${KEYWORDS}::bigint[], ${DEVICES}::text[], ${LOCATIONS}::bigint[], ${LIMITS}::int[])
      with ordinality as a(keyword_id, device, location, lim, n)
    join ${table('keywords')} k on k.id = a.keyword_id and (${ORG}::bigint is null or k.org_id = ${ORG}::bigint)
    cross join lateral (
      select case when a.location = ${PRIMARY}::bigint then coalesce(
        (select l.id from ${table('client_locations')} l
          where l.client_id = k.client_id and l.removed_at is null and ${nameKey('l.name')} = ${nameKey('k.location')}
          order by l.id limit 1),
        (select l.id from ${table('client_locations')} l where l.client_id = k.client_id and l.removed_at is null order by l.id limit 1))
      else nullif(a.location, 0) end as location_id
    ) s
    cross join lateral (
      select json_agg(json_build_object(
          'date', q.rank_date, 'position', q.position, 'change', q.change, 'url', q.url, 'page_id', q.page_id,
          'ai_overview', q.ai_overview, 'ai_overview_cites_client', q.ai_overview_cites_client)
        order by q.rank_date) as points
      from (
        select w.*, lead(w.position) over newest_first - w.position as change, row_number() over newest_first as newest
        from (
          select r.rank_date, r.position, r.url, r.page_id, r.ai_overview, r.ai_overview_cites_client
          from ${table('keyword_ranks')} r
          where r.keyword_id = k.id and r.location_key = coalesce(s.location_id, 0) and r.device = a.device
          order by r.rank_date desc
          limit a.lim + 1
        ) w
        window newest_first as (order by w.rank_date desc)
      ) q
      where q.newest <= a.lim
    ) h`.compile(db)
  const template = compiled.parameters
  for (const standIn of [KEYWORDS, DEVICES, LOCATIONS, LIMITS, ORG]) {
    if (!template.includes(standIn)) throw new Error(`get_rank_history: no parameter for ${JSON.stringify(standIn)} in ${compiled.sql}`)
  }
  statement = {
    text: namedStatement(compiled.sql),
    parameters: (values) => template.map((p) => (values.has(p) ? values.get(p) : p)),
  }
  statements.set(db, statement)
  return statement
}

/**
 * get_rank_history for each ask, of keywords visible in `orgId` (null: any organization), in one round trip:
 * undefined for an ask whose keyword the caller may not see, in the order asked. The points are oldest
 * first, each with its change since the row before it (the rankChange rule: null when either is outside the
 * top 100 or there is none before).
 */
export async function rankHistories(db: ReadDb, orgId: number | null, asks: readonly HistoryAsk[]): Promise<(RankHistory | undefined)[]> {
  const statement = historyStatement(db)
  const values = new Map<unknown, unknown>([
    [KEYWORDS, asks.map((a) => a.keywordId)],
    [DEVICES, asks.map((a) => a.device)],
    [LOCATIONS, asks.map((a) => (a.location === undefined ? PRIMARY : (a.location ?? 0)))],
    [LIMITS, asks.map((a) => a.limit)],
    [ORG, orgId],
  ])
  const { rows } = await db.executeQuery(
    CompiledQuery.raw(statement.text, statement.parameters(values)) as CompiledQuery<{ n: number; answer: string }>,
  )
  const answers: (RankHistory | undefined)[] = new Array(asks.length)
  for (const row of rows) answers[row.n - 1] = JSON.parse(row.answer) as RankHistory
  return answers
}
