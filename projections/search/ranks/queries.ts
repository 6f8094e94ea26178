import type { Selectable } from 'kysely'
import type { RankDevice, RankSource, SerpFeatures } from '../../../domain/search/ranks/rank-row.js'
import { primaryLocationId, type RankSeries } from '../../../domain/search/ranks/series.js'
import { visibleKeyword } from '../../keywords/queries.js'
import type { ReadDb } from '../../tables.js'
import type { KeywordRanksTable } from './tables.js'

type RankRowRead = Selectable<KeywordRanksTable>

/** A rank row as the API answers it. */
export interface RankView {
  keyword_id: number
  client_id: number
  location_id: number | null
  device: RankDevice
  date: string
  position: number | null
  url: string | null
  page_id: number | null
  competitors: string[]
  serp_features: SerpFeatures
  source: RankSource
  check_id: number | null
  recorded_at: string
}

export function rankView(r: RankRowRead): RankView {
  return {
    keyword_id: r.keyword_id,
    client_id: r.client_id,
    location_id: r.location_id,
    device: r.device,
    date: r.rank_date,
    position: r.position,
    url: r.url,
    page_id: r.page_id,
    competitors: r.competitors,
    serp_features: {
      local_pack: r.local_pack,
      local_pack_includes_client: r.local_pack_includes_client,
      featured_snippet: r.featured_snippet,
      featured_snippet_is_client: r.featured_snippet_is_client,
      people_also_ask: r.people_also_ask,
      ai_overview: r.ai_overview,
      ai_overview_cites_client: r.ai_overview_cites_client,
    },
    source: r.source,
    check_id: r.check_id,
    recorded_at: r.recorded_at.toISOString(),
  }
}

/** A keyword whose ranks a caller reads: visible to it (else not_found, like a missing one), with its primary series' location. */
export interface RankedKeyword {
  readonly id: number
  readonly clientId: number
  readonly keyword: string
  readonly primaryLocationId: number | null
}

export async function rankedKeyword(read: ReadDb, orgId: number | null, keywordId: number): Promise<RankedKeyword> {
  const keyword = await visibleKeyword(read, orgId, keywordId)
  const locations = await read
    .selectFrom('client_locations')
    .select(['id', 'name'])
    .where('client_id', '=', keyword.client_id)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute()
  return {
    id: keyword.id,
    clientId: keyword.client_id,
    keyword: keyword.keyword,
    primaryLocationId: primaryLocationId(keyword.location, locations),
  }
}

function seriesRows(read: ReadDb, keywordId: number, series: RankSeries) {
  return read
    .selectFrom('keyword_ranks')
    .selectAll()
    .where('keyword_id', '=', keywordId)
    .where('location_key', '=', series.locationId ?? 0)
    .where('device', '=', series.device)
}

/** The series' latest `n` rows, newest first. */
export async function lastRanks(read: ReadDb, keywordId: number, series: RankSeries, n: number): Promise<RankView[]> {
  const rows = await seriesRows(read, keywordId, series).orderBy('rank_date', 'desc').limit(n).execute()
  return rows.map(rankView)
}

/** The series' row of `date` exactly, or (unless `exact`) its latest before that date; null when none. */
export async function rankOnOrBefore(
  read: ReadDb,
  keywordId: number,
  series: RankSeries,
  date: string,
  exact: boolean,
): Promise<RankView | null> {
  const row = await seriesRows(read, keywordId, series)
    .where('rank_date', exact ? '=' : '<=', date)
    .orderBy('rank_date', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? rankView(row) : null
}

/** The latest row of every series of the keyword (location, then desktop before mobile); one device when asked. */
export async function latestOfEachSeries(read: ReadDb, keywordId: number, device: RankDevice | undefined): Promise<RankView[]> {
  let query = read.selectFrom('keyword_ranks').selectAll().distinctOn(['location_key', 'device']).where('keyword_id', '=', keywordId)
  if (device) query = query.where('device', '=', device)
  const rows = await query.orderBy('location_key').orderBy('device').orderBy('rank_date', 'desc').execute()
  return rows.map(rankView)
}

/**
 * The days the client has any rank for, newest first. A loose index scan (each step the greatest date
 * below the last, one probe of keyword_ranks_client_date), so two years of dates cost 730 probes, not a
 * scan of millions of rows.
 */
export async function rankDates(read: ReadDb, clientId: number): Promise<string[]> {
  const rows = await read
    .withRecursive('d(rank_date)', (db) =>
      db
        .selectFrom('keyword_ranks')
        .select((eb) => eb.fn.max<string | null>('rank_date').as('rank_date'))
        .where('client_id', '=', clientId)
        .unionAll(
          db
            .selectFrom('d')
            .select((eb) =>
              eb
                .selectFrom('keyword_ranks as k')
                .select((e) => e.fn.max('k.rank_date').as('m'))
                .where('k.client_id', '=', clientId)
                .whereRef('k.rank_date', '<', 'd.rank_date')
                .as('rank_date'),
            )
            .where('d.rank_date', 'is not', null),
        ),
    )
    .selectFrom('d')
    .select('rank_date')
    .where('rank_date', 'is not', null)
    .execute()
  return rows.map((r) => r.rank_date as string)
}

/** One point of a rank chart. */
export interface RankPoint {
  date: string
  position: number | null
  change: number | null
  page_id: number | null
  ai_overview: boolean
  ai_overview_cites_client: boolean
}
