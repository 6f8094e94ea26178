import type { ColumnType } from 'kysely'

/** The pages read models as kysely sees them (DDL in migrations/read-models/pages.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface PagesTable {
  id: number
  client_id: number
  org_id: number
  url: string
  slug: string
  wp_post_id: number | null
  title: string
  active: boolean
  created_at: Timestamp
  updated_at: Timestamp
}

export interface PageSnapshotsTable {
  id: number
  page_id: number
  client_id: number
  org_id: number
  title: string
  content: string
  source: string
  edit_id: number | null
  created_at: Timestamp
}

export interface PageReadModels {
  pages: PagesTable
  page_snapshots: PageSnapshotsTable
}
