import type { ColumnType } from 'kysely'
import type { PageOutcome, ScanErrorCode, ScanFrequency } from '../../../domain/monitoring/scans/events.js'
import type { ScanStatus } from '../../../domain/monitoring/scans/site-scan.js'

/** The scans read models as kysely sees them (DDL in migrations/read-models/monitoring-scans.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
type Counter = ColumnType<number, number | undefined, number>

export interface SiteScansTable {
  id: number
  client_id: number
  org_id: number
  scan_type: string
  trigger: 'manual' | 'cadence'
  /** YYYY-MM-DD (UTC), the day it was queued. */
  date: string
  status: ScanStatus
  attempt: Counter
  worker: string | null
  lease_expires_at: Timestamp | null
  start_url: string | null
  pages_found: Counter
  pages_fetched: Counter
  pages_recorded: Counter
  pages_unchanged: Counter
  pages_skipped: Counter
  pages_failed: Counter
  sitemaps_read: Counter
  keywords_checked: Counter
  pages_scanned: Counter
  error_code: ScanErrorCode | null
  error_message: string | null
  queued_at: Timestamp
  started_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

/** One URL's result in one scan (helper reads: the architecture reads the latest completed crawl's). */
export interface SiteScanPagesTable {
  scan_id: number
  client_id: number
  org_id: number
  url: string
  page_id: number | null
  status: number | null
  in_sitemap: boolean
  depth: number | null
  outcome: PageOutcome
  code: string | null
}

export interface ScanCadencesTable {
  client_id: number
  org_id: number
  frequency: ScanFrequency
  scan_type: string
  updated_at: Timestamp
}

export interface ScansReadModels {
  site_scans: SiteScansTable
  site_scan_pages: SiteScanPagesTable
  scan_cadences: ScanCadencesTable
}
