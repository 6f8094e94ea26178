import type { Selectable } from 'kysely'
import type { z } from 'zod'
import type { PageState } from '../../domain/monitoring/page-state.js'
import type { SnapshotSource } from '../../domain/pages/events.js'
import { NotFoundError } from '../../domain/shared/errors.js'
/** A page of a list: rows to return and rows to skip. */
export interface Paging {
  readonly limit: number
  readonly offset: number
}
import type { ReadDb } from '../tables.js'
import type { PageSnapshotsTable, PagesTable } from './tables.js'

export type PageRow = Selectable<PagesTable>
export type SnapshotRow = Selectable<PageSnapshotsTable>

/** A page as the API shows it (get_pages_for_client). */
export interface PageView {
  page_id: number
  client_id: number
  url: string
  slug: string
  wp_post_id: number | null
  title: string
  active: boolean
  created_at: string
  updated_at: string
}

/** A snapshot as the API shows it (get_latest_snapshot, get_snapshots_for_page). */
export interface SnapshotView {
  snapshot_id: number
  page_id: number
  client_id: number
  title: string
  content: string
  source: z.infer<typeof SnapshotSource>
  edit_id: number | null
  /** crawl and render snapshots: the scan that saw the page, what it saw and the response's validators; else null. */
  scan_id: number | null
  state: PageState | null
  etag: string | null
  last_modified: string | null
  created_at: string
}

export const pageView = (r: PageRow): PageView => ({
  page_id: r.id,
  client_id: r.client_id,
  url: r.url,
  slug: r.slug,
  wp_post_id: r.wp_post_id,
  title: r.title,
  active: r.active,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
})

export const snapshotView = (r: SnapshotRow): SnapshotView => ({
  snapshot_id: r.id,
  page_id: r.page_id,
  client_id: r.client_id,
  title: r.title,
  content: r.content,
  source: r.source as z.infer<typeof SnapshotSource>,
  edit_id: r.edit_id,
  scan_id: r.scan_id,
  state: pageStateOf(r),
  etag: r.etag,
  last_modified: r.last_modified,
  created_at: r.created_at.toISOString(),
})

/** The page state a crawled or rendered snapshot recorded, whole again: its main text is the row's content. */
export function pageStateOf(r: Pick<SnapshotRow, 'state' | 'content'>): PageState | null {
  return r.state === null ? null : { ...r.state, main_text: r.content }
}

/** A page visible in `orgId` (null: any organization); another organization's page answers like a missing one. */
export async function visiblePage(db: ReadDb, orgId: number | null, pageId: number): Promise<PageRow> {
  let query = db.selectFrom('pages').selectAll().where('id', '=', pageId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('page', pageId)
  return row
}

/** A client's pages in id order; only active ones with activeOnly. */
export function pagesForClient(db: ReadDb, clientId: number, activeOnly: boolean): Promise<PageRow[]> {
  let query = db.selectFrom('pages').selectAll().where('client_id', '=', clientId)
  if (activeOnly) query = query.where('active', '=', true)
  return query.orderBy('id').execute()
}

/** The page's newest snapshot (its current content), or undefined when it has none. */
export function latestSnapshot(db: ReadDb, pageId: number): Promise<SnapshotRow | undefined> {
  return db.selectFrom('page_snapshots').selectAll().where('page_id', '=', pageId).orderBy('id', 'desc').limit(1).executeTakeFirst()
}

export function snapshotById(db: ReadDb, snapshotId: number): Promise<SnapshotRow | undefined> {
  return db.selectFrom('page_snapshots').selectAll().where('id', '=', snapshotId).executeTakeFirst()
}

/** The page's snapshots, newest first. */
export function snapshotsForPage(db: ReadDb, pageId: number, page: Paging): Promise<SnapshotRow[]> {
  return db
    .selectFrom('page_snapshots')
    .selectAll()
    .where('page_id', '=', pageId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}
