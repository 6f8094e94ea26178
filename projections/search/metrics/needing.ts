import { sql } from 'kysely'
import type { MetricsLocation } from '../../../domain/search/metrics/events.js'
import { metricsNeed, type MetricsNeed } from '../../../domain/search/metrics/freshness.js'
import { locationOf, metricsCountryByCode } from '../../../domain/search/metrics/location.js'
import { providerKeywordProblem } from '../../../domain/search/metrics/provider-keyword.js'
import type { ReadDb } from '../../tables.js'
import { unnestRelation } from '../../unnest.js'
import { metricsLocationsOf } from './client-locations.js'

/** Clients whose keywords are tracked: active ones, and those being set up (staging), whose research starts early. */
export const METRICS_CLIENT_STATUSES = ['active', 'staging'] as const

/** A phrase an organization needs numbers for, in one market, with the keywords and clients that share it. */
export interface NeededKeyword {
  readonly orgId: number
  readonly keywordKey: string
  /** The text of its oldest keyword. */
  readonly keyword: string
  readonly location: MetricsLocation
  readonly keywordIds: number[]
  readonly clientIds: number[]
  readonly need: MetricsNeed
  readonly fetchedAt: Date | null
  readonly lastErrorCode: string | null
}

export interface NeedingOptions {
  /** One organization, or null: every organization (the metrics processor). */
  readonly orgId: number | null
  readonly now: Date
  readonly maxAgeDays: number
  /** Normalized texts to leave out. */
  readonly excludeKeys?: ReadonlySet<string>
  /** Only phrases the provider accepts (providerKeywordProblem): what the processor can fetch. */
  readonly fetchableOnly?: boolean
  /** Leave out phrases whose last fetch failed after this time, unless a refresh was asked for since. */
  readonly failedBefore?: Date
  readonly limit?: number
}

const DAY_MS = 86_400_000

/**
 * The unique phrases (normalized text × market, per organization) of active keywords of active or staging
 * clients whose metrics are missing, stale, or asked for again: never-fetched first, then refresh requests,
 * then the oldest numbers; within each, the phrase of the oldest keyword first. The clients' markets are
 * worked out here (location.ts) and joined in as one relation, so the database does the matching and
 * returns only what is needed, however many keywords are fresh.
 */
export async function keywordsNeedingMetrics(read: ReadDb, options: NeedingOptions): Promise<NeededKeyword[]> {
  let clientQuery = read.selectFrom('clients').select('id').where('status', 'in', METRICS_CLIENT_STATUSES)
  if (options.orgId !== null) clientQuery = clientQuery.where('org_id', '=', options.orgId)
  const clientIds = (await clientQuery.orderBy('id').execute()).map((c) => c.id)
  if (clientIds.length === 0) return []
  const locations = await metricsLocationsOf(read, clientIds)
  const markets = unnestRelation<{ client_id: number; location_code: number }, 'cl'>('cl', [
    ['client_id', clientIds, 'bigint'],
    ['location_code', clientIds.map((id) => locations.get(id)!.location_code), 'bigint'],
  ])
  const staleBefore = new Date(options.now.getTime() - options.maxAgeDays * DAY_MS)
  let query = read
    .selectFrom('keywords as k')
    .innerJoin(markets, (join) => join.onRef('cl.client_id', '=', 'k.client_id'))
    .leftJoin('keyword_metrics as m', (join) =>
      join
        .onRef('m.org_id', '=', 'k.org_id')
        .onRef('m.keyword_key', '=', 'k.keyword_key')
        .onRef('m.location_code', '=', 'cl.location_code'),
    )
    .select([
      'k.org_id',
      'k.keyword_key',
      'cl.location_code',
      'm.fetched_at',
      'm.refresh_requested_at',
      'm.last_error_code',
      sql<string>`(array_agg(k.keyword order by k.id))[1]`.as('keyword'),
      // bigint arrays come back as text: Number() below.
      sql<(number | string)[]>`array_agg(k.id order by k.id)`.as('keyword_ids'),
      sql<(number | string)[]>`array_agg(k.client_id order by k.id)`.as('client_ids'),
    ])
    .where('k.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('m.fetched_at', 'is', null),
        eb('m.fetched_at', '<', staleBefore),
        eb('m.refresh_requested_at', '>', eb.ref('m.fetched_at')),
      ]),
    )
  if (options.orgId !== null) query = query.where('k.org_id', '=', options.orgId)
  const failedBefore = options.failedBefore
  if (failedBefore) {
    query = query.where((eb) =>
      eb.or([
        eb('m.last_error_at', 'is', null),
        eb('m.last_error_at', '<=', failedBefore),
        eb('m.refresh_requested_at', '>', eb.ref('m.last_error_at')),
      ]),
    )
  }
  if (options.excludeKeys && options.excludeKeys.size > 0) {
    query = query.where(sql<boolean>`k.keyword_key <> all(${sql.val([...options.excludeKeys])}::text[])`)
  }
  let grouped = query
    .groupBy(['k.org_id', 'k.keyword_key', 'cl.location_code', 'm.fetched_at', 'm.refresh_requested_at', 'm.last_error_code'])
    .orderBy(sql`case when m.fetched_at is null then 0 when m.refresh_requested_at > m.fetched_at then 1 else 2 end`)
    .orderBy(sql`m.fetched_at asc nulls first`)
    .orderBy(sql`min(k.id)`)
  // The processor filters what the provider refuses after the query, so only the RPC's limit is the database's.
  if (options.limit !== undefined && !options.fetchableOnly) grouped = grouped.limit(options.limit)
  const rows = await grouped.execute()
  const needed: NeededKeyword[] = []
  for (const r of rows) {
    if (options.fetchableOnly && providerKeywordProblem(r.keyword_key) !== null) continue
    const need = metricsNeed({ fetchedAt: r.fetched_at, refreshRequestedAt: r.refresh_requested_at }, options.now, options.maxAgeDays)
    if (need === null) continue
    const keywordIds = r.keyword_ids.map(Number)
    needed.push({
      orgId: r.org_id,
      keywordKey: r.keyword_key,
      keyword: r.keyword,
      location: locationOf(metricsCountryByCode(Number(r.location_code))!),
      keywordIds,
      clientIds: [...new Set(r.client_ids.map(Number))],
      need,
      fetchedAt: r.fetched_at,
      lastErrorCode: r.last_error_code,
    })
  }
  return options.limit === undefined ? needed : needed.slice(0, options.limit)
}
