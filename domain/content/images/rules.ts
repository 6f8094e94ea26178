import { z } from 'zod'

/**
 * The rules of a client's images (issue 28), the same for every way in (add_client_image, the sandbox seeder,
 * the realistic log): what an image may be, how large, and how it is named and typed.
 */

/** The largest image accepted, as received (base64 decoded, or fetched from source_url): 20 MiB. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024
/**
 * The most pixels an image may decode to (width × height × frames): 50 megapixels, e.g. 8,660 × 5,773. The
 * header is read before any decoding, so a small file claiming huge dimensions (a decompression bomb) is
 * refused without allocating its pixels.
 */
export const IMAGE_MAX_PIXELS = 50_000_000
/** The WebP derivative fits inside this many pixels on its longer side (a larger image is scaled down, never up). */
export const WEBP_MAX_SIDE = 2560
export const IMAGE_FILENAME_MAX_LENGTH = 255
export const IMAGE_ALT_TEXT_MAX_LENGTH = 1000
export const IMAGE_TITLE_MAX_LENGTH = 300
export const IMAGE_SOURCE_URL_MAX_LENGTH = 2000
/** Items of one bulk_update_image_types call. */
export const IMAGE_BULK_MAX_ITEMS = 500

/**
 * The raster formats accepted. SVG is refused, not sanitized: it is a document that can carry script and
 * external references, and what a site needs from it (a logo) can be uploaded as PNG or WebP.
 */
export const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp', 'avif'] as const
export const ImageFormat = z.enum(IMAGE_FORMATS)
export type ImageFormat = z.infer<typeof ImageFormat>

export const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
}

/**
 * What an image is for on the site: a fixed list, so that counts per type (get_image_type_stats) mean the
 * same for every client and a typo is refused rather than becoming a type of its own.
 */
export const IMAGE_TYPES = ['hero', 'gallery', 'team', 'logo', 'blog_featured', 'service', 'location', 'other'] as const
export const ImageType = z.enum(IMAGE_TYPES)
export type ImageType = z.infer<typeof ImageType>

/**
 * Where an image stands against the site's media library: `pending` (never pushed), `pushed` (its current
 * version is the one in the media library), `changed` (replaced since its push). Out of sync: pending or changed.
 */
export const IMAGE_SYNC_STATUSES = ['pending', 'pushed', 'changed'] as const
export const ImageSyncStatus = z.enum(IMAGE_SYNC_STATUSES)
export type ImageSyncStatus = z.infer<typeof ImageSyncStatus>

export function syncStatusOf(sha256: string, pushedSha256: string | null): ImageSyncStatus {
  if (pushedSha256 === null) return 'pending'
  return pushedSha256 === sha256 ? 'pushed' : 'changed'
}

/** A file name as the site's media library would show it: no path, no control characters. */
export const ImageFilename = z
  .string()
  .trim()
  .min(1)
  .max(IMAGE_FILENAME_MAX_LENGTH)
  .refine((name) => !/[/\\]/.test(name) && ![...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), {
    message: 'a file name without slashes or control characters',
  })
