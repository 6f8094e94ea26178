import type { ColumnType, Generated } from 'kysely'

/** The site-edit read models as kysely sees them (DDL in migrations/read-models/site-edits.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface SiteEditsTable {
  id: number
  client_id: number
  org_id: number
  operation: string
  page_url: string
  page_id: number | null
  payload: string
  status: string
  approved_by: Generated<string>
  job_id: number | null
  /** Who staged it, applied it and rolled it back, as `<actor kind>:<actor id>` from the events' metadata. */
  staged_by: string
  applied_by: ColumnType<string | null, string | null | undefined, string | null>
  rolled_back_by: ColumnType<string | null, string | null | undefined, string | null>
  before_snapshot_id: ColumnType<number | null, number | null | undefined, number | null>
  after_snapshot_id: ColumnType<number | null, number | null | undefined, number | null>
  restored_snapshot_id: ColumnType<number | null, number | null | undefined, number | null>
  apply_attempts: Generated<number>
  last_error: ColumnType<string | null, string | null | undefined, string | null>
  /** The stream revision last applied: later events only (a redelivered one changes nothing). */
  revision: number
  created_at: Timestamp
  updated_at: Timestamp
  applied_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  rolled_back_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
}

export interface SiteEditAttemptsTable {
  event_id: string
  edit_id: number
  client_id: number
  org_id: number
  succeeded: boolean
  attempted_at: Timestamp
}

export interface SiteEditReadModels {
  site_edits: SiteEditsTable
  site_edit_attempts: SiteEditAttemptsTable
}
