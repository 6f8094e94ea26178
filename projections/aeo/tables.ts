import type { ColumnType } from 'kysely'

/**
 * The AI Visibility read models as kysely sees them (DDL in migrations/read-models/aeo-*.ts). Each table
 * is written by one projector: aeo_queries (questions), aeo_cadences/aeo_runs/aeo_agents (runs),
 * aeo_captures and aeo_summary_* (captures), aeo_items/aeo_item_hits (tracker), aeo_reports (reports).
 */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface AeoQueriesTable {
  id: number
  client_id: number
  org_id: number
  prompt: string
  prompt_key: string
  engine: string
  service: string
  location: string
  kind: string
  priority: number
  active: boolean
  source: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AeoCadencesTable {
  client_id: number
  org_id: number
  enabled: boolean
  samples_per_month: number
  engines: string[]
  geo_state: string | null
  updated_at: Timestamp
}

export type AeoRunStatus = 'queued' | 'claimed' | 'running' | 'done' | 'failed' | 'cancelled'

export interface AeoRunsTable {
  id: number
  client_id: number
  org_id: number
  query_id: number
  engine: string
  month: string
  geo_state: string | null
  priority: number
  sample: number
  status: AeoRunStatus
  agent_id: string | null
  agent_org_id: number | null
  attempts: number
  error: string | null
  capture_id: number | null
  lease_expires_at: Timestamp | null
  /** A queued run after a failure is not claimable before this time (the retry backoff); null otherwise. */
  retry_at: Timestamp | null
  /** Stream revision of the last event applied: the expected revision of the next append. */
  revision: number
  queued_at: Timestamp
  claimed_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export interface AeoAgentsTable {
  /** `<org id or platform>:<agent_id>`. */
  agent_key: string
  agent_id: string
  agent_org_id: number | null
  engines: string[]
  geo: string
  max_per_day: number | null
  registered_at: Timestamp
  last_seen_at: Timestamp
}

export interface AeoCapturesTable {
  id: number
  client_id: number
  org_id: number
  query_id: number
  engine: string
  month: string
  run_id: number | null
  answer_text: string
  citations: Json<{ url: string; title?: string }[]>
  retrieved: Json<{ url: string; title?: string }[]>
  model: string
  surface: string
  searched: boolean | null
  analysis_version: number
  report_json: Json<Record<string, unknown>>
  record_bytes: number
  record_pruned_at: Timestamp | null
  captured_at: Timestamp
}

export interface AeoItemsTable {
  id: number
  client_id: number
  org_id: number
  item_key: string
  tier: 'A' | 'B' | 'C' | 'X'
  title: string
  status: string
  evidence: string
  note: string | null
  first_month: string
  last_month: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AeoItemHitsTable {
  item_id: number
  capture_id: number
  client_id: number
  query_id: number
  engine: string
  month: string
}

export interface AeoReportsTable {
  client_id: number
  month: string
  org_id: number
  path: string
  content_type: string
  bytes: number
  sha256: string
  filed_at: Timestamp
}

/** The get_aeo_summary totals (migrations/read-models/aeo-summary.ts), kept by the captures projector. */
export interface AeoSummaryCountsTable {
  client_id: number
  month: string
  query_id: number
  engine: string
  captures: number
  present: number
  named_first: number
  mentioned: number
}

export interface AeoSummaryCompetitorsTable {
  client_id: number
  month: string
  name_key: string
  answers: number
}

export interface AeoSummarySpellingsTable {
  client_id: number
  month: string
  name_key: string
  spelling: string
  n: number
}

/** One (question, engine)'s counts in a month: [query_id, engine, captures, present, named_first, mentioned]. */
export type SummaryMonthCount = [number, string, number, number, number, number]

/** aeo_summary_counts and aeo_summary_competitors as get_aeo_summary reads them, per client and month. */
export interface AeoSummaryMonthsTable {
  client_id: number
  month: string
  /** The questions `counts` names, so the read looks up only their current services. */
  query_ids: number[]
  counts: Json<SummaryMonthCount[]>
  /** The month's top 50 competitors as the summary shows them: most answers first, then by lower(name). */
  competitors: Json<{ name: string; mentions: number }[]>
}

export interface AeoReadModels {
  aeo_queries: AeoQueriesTable
  aeo_cadences: AeoCadencesTable
  aeo_runs: AeoRunsTable
  aeo_agents: AeoAgentsTable
  aeo_captures: AeoCapturesTable
  aeo_items: AeoItemsTable
  aeo_item_hits: AeoItemHitsTable
  aeo_reports: AeoReportsTable
  aeo_summary_counts: AeoSummaryCountsTable
  aeo_summary_competitors: AeoSummaryCompetitorsTable
  aeo_summary_spellings: AeoSummarySpellingsTable
  aeo_summary_months: AeoSummaryMonthsTable
}
