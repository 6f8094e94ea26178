import type { ColumnType } from 'kysely'
import type { SiteChangeAttribution, SiteChangeKind, SiteChangeSeverity } from '../../../domain/monitoring/changes/events.js'

/** The site changes read model as kysely sees it (DDL in migrations/read-models/monitoring-changes.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per SiteChangeDetected; `detected_at` is the event's time. */
export interface SiteChangesTable {
  id: number
  org_id: number
  client_id: number
  page_id: number
  url: string
  kind: SiteChangeKind
  severity: SiteChangeSeverity
  before: string | null
  after: string | null
  words_changed: number | null
  attribution: SiteChangeAttribution
  edit_id: number | null
  snapshot_id: number
  previous_snapshot_id: number | null
  detected_at: Timestamp
}

export interface SiteChangesReadModels {
  site_changes: SiteChangesTable
}
