import type { ColumnType } from 'kysely'

/** The images read model as kysely sees it (DDL in migrations/read-models/content-images.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per client image: its current version. */
export interface ClientImagesTable {
  id: number
  org_id: number
  client_id: number
  filename: string
  /** hero, gallery, team, logo, blog_featured, service, location or other. */
  image_type: string
  alt_text: string
  title: string
  page_id: number | null
  /** '' for an upload. */
  source_url: string
  version: number
  /** jpeg, png, gif, webp or avif. */
  format: string
  content_type: string
  width: number
  height: number
  bytes: ColumnType<number, number, number>
  sha256: string
  path: string
  webp_path: string
  webp_width: number
  webp_height: number
  webp_bytes: ColumnType<number, number, number>
  wp_attachment_id: number | null
  /** The version's sha256 that is in the media library; null: never pushed. */
  pushed_sha256: string | null
  pushed_at: Timestamp | null
  created_at: Timestamp
  updated_at: Timestamp
}

/** The images sub-area's read models as kysely sees them. */
export interface ImagesReadModels {
  client_images: ClientImagesTable
}
