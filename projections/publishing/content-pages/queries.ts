import type { Selectable } from 'kysely'
import type { ContentPageStatus } from '../../../domain/publishing/content-pages/statuses.js'
import { parseVerification, type Verification } from '../../../domain/publishing/content-pages/verification.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { ContentPagesTable } from './tables.js'

export type ContentPageRow = Selectable<ContentPagesTable>

/** A content page as the API shows it (get_content_page, list_content_pages). */
export interface ContentPageView {
  id: number
  client_id: number
  wp_post_id: number
  job_id: number | null
  slug: string
  title: string
  status: ContentPageStatus
  verify_json: string
  /** verify_json parsed; null when there is none. */
  verification: Verification | null
  created_at: string
  updated_at: string
}

export function contentPageView(row: ContentPageRow): ContentPageView {
  return {
    id: row.id,
    client_id: row.client_id,
    wp_post_id: row.wp_post_id,
    job_id: row.job_id,
    slug: row.slug,
    title: row.title,
    status: row.status as ContentPageStatus,
    verify_json: row.verify_json,
    // Stored only after the same parse accepted it.
    verification: parseVerification(row.verify_json),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The content page if the caller may see it (null: any organization); otherwise the same not-found whether missing or foreign. */
export async function visibleContentPage(db: ReadDb, orgId: number | null, pageId: number): Promise<ContentPageRow> {
  let query = db.selectFrom('content_pages').selectAll().where('id', '=', pageId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('content page', pageId)
  return row
}

/**
 * The client's content pages, oldest first, optionally of one status: what list_content_pages answers and
 * what get_client_wp_post_ids reads (each row's wp_post_id is a WordPress post the service created).
 */
export async function contentPagesForClient(db: ReadDb, clientId: number, status?: ContentPageStatus): Promise<ContentPageRow[]> {
  let query = db.selectFrom('content_pages').selectAll().where('client_id', '=', clientId)
  if (status !== undefined) query = query.where('status', '=', status)
  return query.orderBy('id').execute()
}
