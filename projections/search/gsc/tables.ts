import type { ColumnType } from 'kysely'

/** The Search Console read models as kysely sees them (DDL in migrations/read-models/search-gsc.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>
/** A `date` column: written as YYYY-MM-DD, read back as text by the queries (to_char), never as a Date. */
type Day = ColumnType<string, string, string>

export type GscPropertyStatus = 'connected' | 'removed'
export type GscCaptureRowStatus = 'queued' | 'running' | 'retrying' | 'completed' | 'failed'

export interface GscPropertiesTable {
  client_id: number
  org_id: number
  property: string
  property_type: string
  auth_type: string
  /** The service account's address (what the agency adds to the property); null for an OAuth grant. */
  service_account_email: string | null
  cadence: string
  status: GscPropertyStatus
  connected_at: Timestamp
  updated_at: Timestamp
  removed_at: Timestamp | null
}

export interface GscCapturesTable {
  id: number
  client_id: number
  org_id: number
  property: string
  start_date: Day
  end_date: Day
  trigger: string
  status: GscCaptureRowStatus
  attempts: number
  row_count: number
  days_recorded: number
  error_code: string | null
  error_message: string | null
  queued_at: Timestamp
  started_at: Timestamp | null
  /** When a capture waiting to retry is tried again. */
  next_attempt_at: Timestamp | null
  finished_at: Timestamp | null
  updated_at: Timestamp
}

export interface GscCaptureRowsTable {
  capture_id: number
  row_no: number
  client_id: number
  org_id: number
  date: Day
  query: string
  page: string
  clicks: number
  impressions: number
  ctr: number
  position: number
}

export interface GscReadModels {
  gsc_properties: GscPropertiesTable
  gsc_captures: GscCapturesTable
  gsc_capture_rows: GscCaptureRowsTable
}
