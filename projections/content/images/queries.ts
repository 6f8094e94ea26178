import { sql, type Selectable } from 'kysely'
import { type ImageSyncStatus, type ImageType, syncStatusOf } from '../../../domain/content/images/rules.js'
import type { ReadDb } from '../../tables.js'
import type { ClientImagesTable } from './tables.js'

export type ClientImageRow = Selectable<ClientImagesTable>

/** Where a stored file is served: GET /api/v1/files/<path> with a key of the image's organization. */
export const imageFileUrl = (path: string) => `/api/v1/files/${path}`

/** An image as the API shows it (get_images_for_client, get_page_images, get_images_out_of_sync). */
export interface ClientImageView {
  id: number
  client_id: number
  filename: string
  image_type: ImageType
  alt_text: string
  title: string
  page_id: number | null
  source_url: string
  version: number
  status: ImageSyncStatus
  format: string
  content_type: string
  width: number
  height: number
  bytes: number
  sha256: string
  url: string
  webp: { url: string; width: number; height: number; bytes: number }
  wp_attachment_id: number | null
  pushed_at: string | null
  created_at: string
  updated_at: string
}

export function clientImageView(row: ClientImageRow): ClientImageView {
  return {
    id: row.id,
    client_id: row.client_id,
    filename: row.filename,
    image_type: row.image_type as ImageType,
    alt_text: row.alt_text,
    title: row.title,
    page_id: row.page_id,
    source_url: row.source_url,
    version: row.version,
    status: syncStatusOf(row.sha256, row.pushed_sha256),
    format: row.format,
    content_type: row.content_type,
    width: row.width,
    height: row.height,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    url: imageFileUrl(row.path),
    webp: { url: imageFileUrl(row.webp_path), width: row.webp_width, height: row.webp_height, bytes: Number(row.webp_bytes) },
    wp_attachment_id: row.wp_attachment_id,
    pushed_at: row.pushed_at ? row.pushed_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

/** The SQL of a row's sync status (syncStatusOf), to filter by. */
const statusSql = sql<ImageSyncStatus>`case when pushed_sha256 is null then 'pending' when pushed_sha256 = sha256 then 'pushed' else 'changed' end`
const outOfSync = sql<boolean>`pushed_sha256 is distinct from sha256`

/** The client's images, oldest first, optionally of one sync status and one type. */
export function imagesForClient(
  db: ReadDb,
  clientId: number,
  filter: { status?: ImageSyncStatus | undefined; imageType?: ImageType | undefined; limit: number; offset: number },
): Promise<ClientImageRow[]> {
  let query = db.selectFrom('client_images').selectAll().where('client_id', '=', clientId)
  if (filter.status !== undefined) query = query.where(statusSql, '=', filter.status)
  if (filter.imageType !== undefined) query = query.where('image_type', '=', filter.imageType)
  return query.orderBy('id').limit(filter.limit).offset(filter.offset).execute()
}

/** The client's image with this file name, if any (bulk_update_image_types matches by it). */
export function imageByFilename(db: ReadDb, clientId: number, filename: string): Promise<ClientImageRow | undefined> {
  return db.selectFrom('client_images').selectAll().where('client_id', '=', clientId).where('filename', '=', filename).executeTakeFirst()
}

/** The images shown on a page (recorded with its page_id), oldest first. */
export function imagesForPage(db: ReadDb, pageId: number): Promise<ClientImageRow[]> {
  return db.selectFrom('client_images').selectAll().where('page_id', '=', pageId).orderBy('id').execute()
}

export interface ImageStats {
  client_id: number
  total: number
  pending: number
  pushed: number
  changed: number
  out_of_sync: number
  with_alt_text: number
  without_alt_text: number
  bytes: number
  webp_bytes: number
  last_pushed_at: string | null
}

/** The client's images counted: by sync status, with and without alt text, and their sizes. */
export async function imageStats(db: ReadDb, clientId: number): Promise<ImageStats> {
  const row = await db
    .selectFrom('client_images')
    .select([
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) filter (where pushed_sha256 is null)`.as('pending'),
      sql<string>`count(*) filter (where pushed_sha256 = sha256)`.as('pushed'),
      sql<string>`count(*) filter (where alt_text <> '')`.as('with_alt_text'),
      sql<string>`coalesce(sum(bytes), 0)`.as('bytes'),
      sql<string>`coalesce(sum(webp_bytes), 0)`.as('webp_bytes'),
      sql<Date | null>`max(pushed_at)`.as('last_pushed_at'),
    ])
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow()
  const total = Number(row.total)
  const pending = Number(row.pending)
  const pushed = Number(row.pushed)
  const withAlt = Number(row.with_alt_text)
  return {
    client_id: clientId,
    total,
    pending,
    pushed,
    changed: total - pending - pushed,
    out_of_sync: total - pushed,
    with_alt_text: withAlt,
    without_alt_text: total - withAlt,
    bytes: Number(row.bytes),
    webp_bytes: Number(row.webp_bytes),
    last_pushed_at: row.last_pushed_at ? new Date(row.last_pushed_at).toISOString() : null,
  }
}

export interface ImageTypeStats {
  image_type: ImageType
  total: number
  pushed: number
  out_of_sync: number
  without_alt_text: number
}

/** The client's images counted per type (only the types it has), most first, then by name. */
export async function imageTypeStats(db: ReadDb, clientId: number): Promise<ImageTypeStats[]> {
  const rows = await db
    .selectFrom('client_images')
    .select([
      'image_type',
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) filter (where pushed_sha256 = sha256)`.as('pushed'),
      sql<string>`count(*) filter (where alt_text = '')`.as('without_alt_text'),
    ])
    .where('client_id', '=', clientId)
    .groupBy('image_type')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('image_type')
    .execute()
  return rows.map((r) => ({
    image_type: r.image_type as ImageType,
    total: Number(r.total),
    pushed: Number(r.pushed),
    out_of_sync: Number(r.total) - Number(r.pushed),
    without_alt_text: Number(r.without_alt_text),
  }))
}

/** The organization's images (null: every organization's) that are not in the media library at their current version, oldest first. */
export function imagesOutOfSync(db: ReadDb, orgId: number | null, page: { limit: number; offset: number }): Promise<ClientImageRow[]> {
  let query = db.selectFrom('client_images').selectAll().where(outOfSync)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query.orderBy('id').limit(page.limit).offset(page.offset).execute()
}

export async function countImagesOutOfSync(db: ReadDb, orgId: number | null): Promise<number> {
  let query = db.selectFrom('client_images').select(sql<string>`count(*)`.as('n')).where(outOfSync)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

/** The client's most recent push (the latest pushed_at of its images); null when none was ever pushed. */
export async function lastImagePushAt(db: ReadDb, clientId: number): Promise<string | null> {
  const row = await db
    .selectFrom('client_images')
    .select(sql<Date | null>`max(pushed_at)`.as('at'))
    .where('client_id', '=', clientId)
    .executeTakeFirstOrThrow()
  return row.at ? new Date(row.at).toISOString() : null
}
