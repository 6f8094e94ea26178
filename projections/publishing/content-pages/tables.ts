import type { ColumnType } from 'kysely'

/** The content pages read model as kysely sees it (DDL in migrations/read-models/publishing-content-pages.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per content page: a page the service created on a client's WordPress. */
export interface ContentPagesTable {
  id: number
  org_id: number
  client_id: number
  wp_post_id: number
  job_id: number | null
  slug: string
  title: string
  /** draft, pending_review, published, verified, failed or trashed. */
  status: string
  /** The verification as JSON text; '' when none. */
  verify_json: string
  created_at: Timestamp
  updated_at: Timestamp
}

/** The content pages sub-area's read models as kysely sees them. */
export interface ContentPagesReadModels {
  content_pages: ContentPagesTable
}
