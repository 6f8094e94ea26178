import type { ColumnType } from 'kysely'

/** The website projects sub-area's read models as kysely sees them (DDL in migrations/read-models/publishing-projects.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per website project. */
export interface WebsiteProjectsTable {
  id: number
  org_id: number
  client_id: number
  name: string
  kind: string
  status: string
  site_url: string | null
  staging_url: string | null
  library_client_id: number | null
  notes: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** When it entered its current status (its creation for a project never moved). */
  status_changed_at: Timestamp
}

export interface WebsiteProjectsReadModels {
  website_projects: WebsiteProjectsTable
}
