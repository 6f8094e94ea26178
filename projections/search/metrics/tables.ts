import type { ColumnType } from 'kysely'
import type { MonthlySearch } from '../../../domain/search/metrics/events.js'
import type { z } from 'zod'

/** The metrics read models as kysely sees them (DDL in migrations/read-models/search-metrics.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

/**
 * One row per organization × normalized keyword × Google Ads location: the last numbers recorded for it
 * (null while none were), when, by which fetch, and the last failure of a fetch that asked about it.
 */
export interface KeywordMetricsTable {
  org_id: number
  keyword_key: string
  location_code: number
  keyword: string
  location_name: string
  language_code: string
  search_volume: number | null
  cpc: number | null
  competition: string | null
  competition_index: number | null
  low_top_of_page_bid: number | null
  high_top_of_page_bid: number | null
  difficulty: number | null
  monthly_searches: Json<z.infer<typeof MonthlySearch>[]>
  spell: string | null
  source: string | null
  fetch_id: string | null
  fetched_at: Timestamp | null
  refresh_requested_at: Timestamp | null
  last_error_code: string | null
  last_error_message: string | null
  last_error_at: Timestamp | null
  updated_at: Timestamp
}

/** One row per fetch (a provider batch, or one record_keyword_metrics call): its outcome, size and cost. */
export interface KeywordMetricsFetchesTable {
  id: string
  org_id: number
  source: string
  status: 'succeeded' | 'failed'
  location_code: number
  location_name: string
  language_code: string
  keywords: number
  with_data: number
  difficulty: string | null
  difficulty_error_code: string | null
  difficulty_error_message: string | null
  attempts: number
  provider_calls: number
  cost_usd: number | null
  error_code: string | null
  error_message: string | null
  error_http_status: number | null
  error_provider_status: number | null
  recorded_at: Timestamp
}

export interface KeywordMetricsReadModels {
  keyword_metrics: KeywordMetricsTable
  keyword_metrics_fetches: KeywordMetricsFetchesTable
}
