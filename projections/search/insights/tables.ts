import type { ColumnType } from 'kysely'
import type { InsightSeverity, InsightSource, InsightStatus, InsightType } from '../../../domain/search/insights/kinds.js'
import type { MetaOptimizationStatus } from '../../../domain/search/insights/meta-optimization-set.js'

/** The insights read models as kysely sees them (DDL in migrations/read-models/search-insights.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per insight ever raised; a resolved one stays (status resolved). */
export interface SeoInsightsTable {
  id: number
  client_id: number
  org_id: number
  insight_type: InsightType
  source: InsightSource
  natural_key: string
  severity: InsightSeverity
  summary: string
  keyword_id: number | null
  page_id: number | null
  /** The numbers that justify it (jsonb; written as JSON text). */
  evidence: ColumnType<Record<string, unknown>, string, string>
  status: InsightStatus
  /** The note of the last status change ('' when none). */
  note: string
  /** The stream revision of the last event applied: an older redelivery never overwrites it. */
  revision: number
  raised_at: Timestamp
  status_changed_at: Timestamp | null
  resolved_at: Timestamp | null
  updated_at: Timestamp
}

export interface MetaOptimizationsTable {
  id: number
  client_id: number
  org_id: number
  page_id: number
  page_url: string
  insight_id: number | null
  query: string
  location: string
  current_title: string
  current_description: string
  proposed_title: string
  proposed_description: string
  writer: string
  status: MetaOptimizationStatus
  /** The site edit it was staged as. */
  edit_id: number | null
  /** Who proposed it, as <actor kind>:<actor id>. */
  proposed_by: string
  rejected_by: string | null
  reject_reason: string | null
  /** The stream revision of the last event applied: an older redelivery never overwrites it. */
  revision: number
  created_at: Timestamp
  staged_at: Timestamp | null
  applied_at: Timestamp | null
  rejected_at: Timestamp | null
  rolled_back_at: Timestamp | null
  updated_at: Timestamp
}

export interface InsightsReadModels {
  seo_insights: SeoInsightsTable
  meta_optimizations: MetaOptimizationsTable
}
