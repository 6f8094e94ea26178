import { z } from 'zod'
import { Id } from '../../shared/values.js'
import {
  IMAGE_ALT_TEXT_MAX_LENGTH,
  IMAGE_SOURCE_URL_MAX_LENGTH,
  IMAGE_TITLE_MAX_LENGTH,
  ImageFilename,
  ImageFormat,
  ImageType,
} from './rules.js'

/**
 * The images sub-area's events (issue 28): a client's images, in the client's stream `client_images-<client_id>`
 * (one image per file name of the client is decided against them all). See README.md beside this file.
 */
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/)

/**
 * add_client_image: the image as stored (EXIF stripped) and its WebP derivative, both in the blob store. A file
 * name the client already has is a new version of that image (`version` up by one when the content changed); the
 * values are absolute, so a projector sets them as they are.
 */
export const ClientImageStored = z.object({
  client_id: Id,
  image_id: Id,
  version: z.number().int().min(1),
  filename: ImageFilename,
  image_type: ImageType,
  alt_text: z.string().max(IMAGE_ALT_TEXT_MAX_LENGTH),
  title: z.string().max(IMAGE_TITLE_MAX_LENGTH),
  page_id: Id.nullable(),
  /** Where it was fetched from; '' when it was uploaded. */
  source_url: z.string().max(IMAGE_SOURCE_URL_MAX_LENGTH),
  format: ImageFormat,
  content_type: z.string(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  bytes: z.number().int().min(1),
  sha256: Sha256,
  path: z.string(),
  webp_path: z.string(),
  webp_width: z.number().int().min(1),
  webp_height: z.number().int().min(1),
  webp_bytes: z.number().int().min(1),
  webp_sha256: Sha256,
})

/**
 * bulk_update_image_types, one item: the image's type and the WordPress attachment it is in the media library
 * as, after the change. `attachment_recorded`: this event recorded the attachment, so the version it names
 * (`pushed_sha256`) counts as pushed when the event occurred.
 */
export const ClientImageTypeUpdated = z.object({
  client_id: Id,
  image_id: Id,
  image_type: ImageType,
  wp_attachment_id: Id.nullable(),
  pushed_sha256: Sha256.nullable(),
  attachment_recorded: z.boolean(),
})

export const imagesEventSchemas = { ClientImageStored, ClientImageTypeUpdated } as const

type Schemas = typeof imagesEventSchemas
export type ImagesEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type StoredImage = z.infer<typeof ClientImageStored>
