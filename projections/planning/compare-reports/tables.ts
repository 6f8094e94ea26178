import type { ColumnType } from 'kysely'
import type { CompareSummary } from '../../../domain/planning/compare-reports/events.js'

/** The compare reports read models as kysely sees them (DDL in migrations/read-models/planning-compare-reports.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per report (one client-month); the file is under /api/v1/files/<path>. */
export interface CompareReportsTable {
  id: number
  client_id: number
  org_id: number
  month: string
  against_month: string
  path: string
  content_type: string
  bytes: number
  sha256: string
  summary: ColumnType<CompareSummary, string, string>
  /** The month's first filing. */
  created_at: Timestamp
  /** The latest filing (the file's). */
  filed_at: Timestamp
}

export interface CompareReportsReadModels {
  compare_reports: CompareReportsTable
}
