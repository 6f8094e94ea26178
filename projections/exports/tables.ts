import type { ColumnType } from 'kysely'

/** The export read model as kysely sees it (DDL in migrations/read-models/exports.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface OrgExportsTable {
  job_id: number
  org_id: number
  filename: string
  path: string
  size: number
  sha256: string
  tables: number
  rows: number
  position: string | null
  created_at: Timestamp
  expires_at: Timestamp
  /** Set by OrgExportExpired: the file is deleted and the export no longer listed. */
  expired_at: Timestamp | null
}

export interface ExportReadModels {
  org_exports: OrgExportsTable
}
