import { sql, type Selectable } from 'kysely'
import type { z } from 'zod'
import type { CompetitionLevel, MetricsLocation, MetricsSource, MonthlySearch } from '../../../domain/search/metrics/events.js'
import { metricsNeed, type MetricsNeed } from '../../../domain/search/metrics/freshness.js'
import type { KeywordRow, Page } from '../../keywords/queries.js'
import type { ReadDb } from '../../tables.js'
import { metricsLocationsOf } from './client-locations.js'
import type { KeywordMetricsFetchesTable, KeywordMetricsTable } from './tables.js'

type MetricsRow = Selectable<KeywordMetricsTable>

/** How current a keyword's numbers are: fresh, or why they are wanted (freshness.ts). */
export type MetricsStatus = 'fresh' | MetricsNeed

/** A keyword's metrics as the API shows them (get_keyword_metrics, get_keyword_metrics_for_client). */
export interface KeywordMetricsView extends MetricsLocation {
  keyword_id: number
  client_id: number
  keyword: string
  search_volume: number | null
  cpc: number | null
  competition: z.infer<typeof CompetitionLevel> | null
  competition_index: number | null
  low_top_of_page_bid: number | null
  high_top_of_page_bid: number | null
  difficulty: number | null
  monthly_searches: z.infer<typeof MonthlySearch>[]
  spell: string | null
  source: MetricsSource | null
  fetched_at: string | null
  status: MetricsStatus
  refresh_requested_at: string | null
  last_error: { code: string; message: string; at: string } | null
}

/** How the metrics reads judge freshness: the service's clock and its KEYWORD_METRICS_MAX_AGE_DAYS. */
export interface Freshness {
  readonly now: Date
  readonly maxAgeDays: number
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

function view(
  keyword: Pick<KeywordRow, 'id' | 'client_id' | 'keyword'>,
  location: MetricsLocation,
  row: MetricsRow | undefined,
  at: Freshness,
): KeywordMetricsView {
  const need = metricsNeed(row && { fetchedAt: row.fetched_at, refreshRequestedAt: row.refresh_requested_at }, at.now, at.maxAgeDays)
  return {
    keyword_id: keyword.id,
    client_id: keyword.client_id,
    keyword: keyword.keyword,
    ...location,
    search_volume: row?.search_volume ?? null,
    cpc: row?.cpc ?? null,
    competition: (row?.competition as KeywordMetricsView['competition'] | undefined) ?? null,
    competition_index: row?.competition_index ?? null,
    low_top_of_page_bid: row?.low_top_of_page_bid ?? null,
    high_top_of_page_bid: row?.high_top_of_page_bid ?? null,
    difficulty: row?.difficulty ?? null,
    monthly_searches: row?.monthly_searches ?? [],
    spell: row?.spell ?? null,
    source: (row?.source as MetricsSource | null | undefined) ?? null,
    fetched_at: iso(row?.fetched_at ?? null),
    status: need ?? 'fresh',
    refresh_requested_at: iso(row?.refresh_requested_at ?? null),
    last_error:
      row?.last_error_code && row.last_error_at
        ? { code: row.last_error_code, message: row.last_error_message ?? '', at: row.last_error_at.toISOString() }
        : null,
  }
}

async function metricsRows(read: ReadDb, orgId: number, locationCode: number, keys: readonly string[]): Promise<Map<string, MetricsRow>> {
  if (keys.length === 0) return new Map()
  const rows = await read
    .selectFrom('keyword_metrics')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('location_code', '=', locationCode)
    .where(sql<boolean>`keyword_key = any(${sql.val([...new Set(keys)])}::text[])`)
    .execute()
  return new Map(rows.map((r) => [r.keyword_key, r]))
}

/** One keyword's metrics in its client's market (all null, status missing, before any were recorded). */
export async function keywordMetrics(read: ReadDb, keyword: KeywordRow, at: Freshness): Promise<KeywordMetricsView> {
  const location = (await metricsLocationsOf(read, [keyword.client_id])).get(keyword.client_id)!
  const rows = await metricsRows(read, keyword.org_id, location.location_code, [keyword.keyword_key])
  return view(keyword, location, rows.get(keyword.keyword_key), at)
}

/** A client's active keywords with their metrics, in the order the keywords were added. */
export async function clientKeywordMetrics(
  read: ReadDb,
  client: { id: number; org_id: number },
  page: Page,
  at: Freshness,
): Promise<KeywordMetricsView[]> {
  const keywords = await read
    .selectFrom('keywords')
    .select(['id', 'client_id', 'keyword', 'keyword_key'])
    .where('client_id', '=', client.id)
    .where('status', '=', 'active')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  const location = (await metricsLocationsOf(read, [client.id])).get(client.id)!
  const rows = await metricsRows(
    read,
    client.org_id,
    location.location_code,
    keywords.map((k) => k.keyword_key),
  )
  return keywords.map((k) => view(k, location, rows.get(k.keyword_key), at))
}

type FetchRow = Selectable<KeywordMetricsFetchesTable>

/** A fetch as list_keyword_metrics_fetches shows it. */
export interface MetricsFetchView extends MetricsLocation {
  fetch_id: string
  source: MetricsSource
  status: 'succeeded' | 'failed'
  keywords: number
  with_data: number
  difficulty: string | null
  difficulty_error: { code: string; message: string } | null
  attempts: number
  provider_calls: number
  cost_usd: number | null
  error: { code: string; message: string; http_status: number | null; provider_status: number | null } | null
  recorded_at: string
}

export function fetchView(row: FetchRow): MetricsFetchView {
  return {
    fetch_id: row.id,
    source: row.source as MetricsSource,
    status: row.status,
    location_code: row.location_code,
    location_name: row.location_name,
    language_code: row.language_code,
    keywords: row.keywords,
    with_data: row.with_data,
    difficulty: row.difficulty,
    difficulty_error: row.difficulty_error_code ? { code: row.difficulty_error_code, message: row.difficulty_error_message ?? '' } : null,
    attempts: row.attempts,
    provider_calls: row.provider_calls,
    cost_usd: row.cost_usd,
    error: row.error_code
      ? {
          code: row.error_code,
          message: row.error_message ?? '',
          http_status: row.error_http_status,
          provider_status: row.error_provider_status,
        }
      : null,
    recorded_at: row.recorded_at.toISOString(),
  }
}

/** The organization's fetches, newest first (null: every organization's). */
export async function metricsFetches(
  read: ReadDb,
  orgId: number | null,
  page: Page,
  status?: 'succeeded' | 'failed',
): Promise<MetricsFetchView[]> {
  let query = read.selectFrom('keyword_metrics_fetches').selectAll()
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  if (status) query = query.where('status', '=', status)
  const rows = await query.orderBy('recorded_at', 'desc').orderBy('id').limit(page.limit).offset(page.offset).execute()
  return rows.map(fetchView)
}
