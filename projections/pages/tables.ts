import type { ColumnType } from 'kysely'
import type { PageState } from '../../domain/monitoring/page-state.js'

/** The pages read models as kysely sees them (DDL in migrations/read-models/pages.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** A page state as page_snapshots stores it: its main text is the row's content. */
export type StoredPageState = Omit<PageState, 'main_text'>

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
  scan_id: number | null
  /** The PageState of a crawl or render without main_text (the row's content holds it); null for other sources. */
  state: ColumnType<StoredPageState | null, string | null, string | null>
  etag: string | null
  last_modified: string | null
  created_at: Timestamp
}

export interface PageReadModels {
  pages: PagesTable
  page_snapshots: PageSnapshotsTable
}
