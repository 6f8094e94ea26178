import { sql, type Selectable } from 'kysely'
import type { MetricsLocation } from '../../../domain/search/metrics/events.js'
import { metricsNeed, type MetricsNeed } from '../../../domain/search/metrics/freshness.js'
import { providerKeywordProblem } from '../../../domain/search/metrics/provider-keyword.js'
import type { ReadDb } from '../../tables.js'
import { metricsLocationsOf } from './client-locations.js'
import type { KeywordMetricsTable } from './tables.js'

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
  readonly limit?: number
}

type MetricsTimes = Pick<
  Selectable<KeywordMetricsTable>,
  'org_id' | 'keyword_key' | 'location_code' | 'fetched_at' | 'refresh_requested_at' | 'last_error_code'
>

const NEED_ORDER: Record<MetricsNeed, number> = { missing: 0, refresh_requested: 1, stale: 2 }

/**
 * The unique phrases (normalized text × market, per organization) of active keywords of active or staging
 * clients whose metrics are missing, stale, or asked for again: never-fetched first, then refresh requests,
 * then the oldest numbers; within each, the phrase of the oldest keyword first.
 */
export async function keywordsNeedingMetrics(read: ReadDb, options: NeedingOptions): Promise<NeededKeyword[]> {
  let keywords = read
    .selectFrom('keywords as k')
    .innerJoin('clients as c', 'c.id', 'k.client_id')
    .select(['k.id', 'k.client_id', 'k.org_id', 'k.keyword', 'k.keyword_key'])
    .where('k.status', '=', 'active')
    .where('c.status', 'in', METRICS_CLIENT_STATUSES)
  if (options.orgId !== null) keywords = keywords.where('k.org_id', '=', options.orgId)
  const rows = await keywords.orderBy('k.id').execute()
  if (rows.length === 0) return []
  const locations = await metricsLocationsOf(
    read,
    rows.map((r) => r.client_id),
  )
  const orgIds = [...new Set(rows.map((r) => r.org_id))]
  const stored = await read
    .selectFrom('keyword_metrics')
    .select(['org_id', 'keyword_key', 'location_code', 'fetched_at', 'refresh_requested_at', 'last_error_code'])
    .where(sql<boolean>`org_id = any(${sql.val(orgIds)}::bigint[])`)
    .execute()
  const times = new Map<string, MetricsTimes>(stored.map((m) => [`${m.org_id}|${m.keyword_key}|${m.location_code}`, m]))

  const groups = new Map<string, NeededKeyword & { first: number }>()
  // Phrases whose numbers are fresh: the keywords sharing them are passed over without a second look.
  const fresh = new Set<string>()
  for (const k of rows) {
    if (options.excludeKeys?.has(k.keyword_key)) continue
    if (options.fetchableOnly && providerKeywordProblem(k.keyword_key) !== null) continue
    const location = locations.get(k.client_id)!
    const id = `${k.org_id}|${k.keyword_key}|${location.location_code}`
    if (fresh.has(id)) continue
    const group = groups.get(id)
    if (group) {
      group.keywordIds.push(k.id)
      if (!group.clientIds.includes(k.client_id)) group.clientIds.push(k.client_id)
      continue
    }
    const row = times.get(id)
    const need = metricsNeed(
      row && { fetchedAt: row.fetched_at, refreshRequestedAt: row.refresh_requested_at },
      options.now,
      options.maxAgeDays,
    )
    if (need === null) {
      fresh.add(id)
      continue
    }
    groups.set(id, {
      orgId: k.org_id,
      keywordKey: k.keyword_key,
      keyword: k.keyword,
      location,
      keywordIds: [k.id],
      clientIds: [k.client_id],
      need,
      fetchedAt: row?.fetched_at ?? null,
      lastErrorCode: row?.last_error_code ?? null,
      first: k.id,
    })
  }
  const needed = [...groups.values()]
  needed.sort(
    (a, b) => NEED_ORDER[a.need] - NEED_ORDER[b.need] || (a.fetchedAt?.getTime() ?? 0) - (b.fetchedAt?.getTime() ?? 0) || a.first - b.first,
  )
  const limited = options.limit === undefined ? needed : needed.slice(0, options.limit)
  return limited.map(({ first: _first, ...k }) => k)
}
