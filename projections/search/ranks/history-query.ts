import { CompiledQuery, sql } from 'kysely'
import { namedStatement } from '../../../commands/named-statements.js'
import type { RankDevice } from '../../../domain/search/ranks/rank-row.js'
import { rankChange } from '../../../domain/search/ranks/series.js'
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

/** The series' columns, newest first (`limit + 1` rows: the extra, older one gives the first point its change); nulls when it has none. */
type SeriesColumns = [string[] | null, (number | null)[] | null, (number | null)[] | null, boolean[] | null, boolean[] | null]

interface HistoryRow {
  n: number
  id: number
  keyword: string
  client_id: number
  location_id: number | null
  series: string
}

const statements = new WeakMap<ReadDb, { text: string; parameters: (values: ReadonlyMap<unknown, unknown>) => unknown[] }>()

/**
 * get_rank_history's statement for any number of asks at once (unnest of one array per field, `with
 * ordinality` numbering them), built once per read handle (the handle names the schema) and run as a named
 * statement (commands/named-statements.ts). For each ask whose keyword the organization may see (else no
 * row: not found like visibleKeyword): the location of its series, the one asked for or its primary one, and
 * the series' latest `limit + 1` rows from the primary key's index alone (it includes the points' columns),
 * as one JSON array per column, newest first. PostgreSQL hands columns, not objects: building a JSON object
 * per point there cost it twenty times what the index scan did; the service makes the points.
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
  const compiled = sql<HistoryRow>`
    select a.n, k.id, k.keyword, k.client_id, s.location_id, h.series::text as series
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
      select json_build_array(
        array_agg(r.rank_date order by r.rank_date desc), array_agg(r.position order by r.rank_date desc),
        array_agg(r.page_id order by r.rank_date desc), array_agg(r.ai_overview order by r.rank_date desc),
        array_agg(r.ai_overview_cites_client order by r.rank_date desc)) as series
      from (
        select r.rank_date, r.position, r.page_id, r.ai_overview, r.ai_overview_cites_client
        from ${table('keyword_ranks')} r
        where r.keyword_id = k.id and r.location_key = coalesce(s.location_id, 0) and r.device = a.device
        order by r.rank_date desc
        limit a.lim + 1
      ) r
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
 * first, each with its change since the row before it (rankChange: null when either is outside the top 100
 * or there is none before).
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
  const { rows } = await db.executeQuery(CompiledQuery.raw(statement.text, statement.parameters(values)) as CompiledQuery<HistoryRow>)
  const answers: (RankHistory | undefined)[] = new Array(asks.length)
  for (const row of rows) {
    const ask = asks[row.n - 1]!
    const [dates, positions, pages, overviews, cited] = JSON.parse(row.series) as SeriesColumns
    const points: RankPoint[] = []
    for (let i = Math.min(dates?.length ?? 0, ask.limit) - 1; i >= 0; i--) {
      const position = positions![i] ?? null
      points.push({
        date: dates![i]!,
        position,
        change: rankChange(positions![i + 1], position),
        page_id: pages![i] ?? null,
        ai_overview: overviews![i]!,
        ai_overview_cites_client: cited![i]!,
      })
    }
    answers[row.n - 1] = {
      keyword_id: row.id,
      keyword: row.keyword,
      client_id: row.client_id,
      location_id: row.location_id,
      device: ask.device,
      points,
    }
  }
  return answers
}
