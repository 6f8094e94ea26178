import type { ColumnType } from 'kysely'

/** The ranks read models as kysely sees them (DDL in migrations/read-models/search-ranks.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/**
 * One rank row per keyword × location × device × date (the latest recorded for the key). `location_key` is
 * location_id, or 0 for a national rank; `rank_date` is YYYY-MM-DD; the SERP features are one column each.
 */
export interface KeywordRanksTable {
  keyword_id: number
  location_key: number
  device: 'desktop' | 'mobile'
  rank_date: string
  location_id: number | null
  client_id: number
  org_id: number
  /** 1-100; null: not in the top 100. */
  position: number | null
  url: string | null
  page_id: number | null
  /** The top organic domains that are not the client's (a JSON array of strings). */
  competitors: ColumnType<string[], string, string>
  local_pack: boolean
  local_pack_includes_client: boolean
  featured_snippet: boolean
  featured_snippet_is_client: boolean
  people_also_ask: boolean
  ai_overview: boolean
  ai_overview_cites_client: boolean
  source: 'dataforseo' | 'serpapi' | 'recorded'
  /** The rank check that observed it; null for record_keyword_ranks. */
  check_id: number | null
  /** The revision of the event that wrote the row in its day's stream: an older redelivery never overwrites it. */
  revision: number
  recorded_at: Timestamp
}

export interface RanksReadModels {
  keyword_ranks: KeywordRanksTable
}
