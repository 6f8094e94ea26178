import { z } from 'zod'
import { addClientImage, updateImageType } from '../../../commands/content/images.js'
import { fetchImage } from '../../../commands/content/images/fetch.js'
import {
  IMAGE_ALT_TEXT_MAX_LENGTH,
  IMAGE_BULK_MAX_ITEMS,
  IMAGE_MAX_BYTES,
  IMAGE_SOURCE_URL_MAX_LENGTH,
  IMAGE_TITLE_MAX_LENGTH,
  IMAGE_TYPES,
  ImageFilename,
  ImageSyncStatus,
  ImageType,
  syncStatusOf,
} from '../../../domain/content/images/rules.js'
import { DomainError, NotFoundError } from '../../../domain/shared/errors.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  clientImageView,
  countImagesOutOfSync,
  imageByFilename,
  imagesForClient,
  imagesForPage,
  imagesOutOfSync,
  imageStats,
  imageTypeStats,
  lastImagePushAt,
} from '../../../projections/content/images/queries.js'
import { visiblePage } from '../../../projections/pages/queries.js'
import { ApiError } from '../../errors.js'
import { rpc, type AnyRpc } from '../../registry.js'
import type { ServiceSettings } from '../../settings.js'
import { ClientId, PageId } from '../ids.js'

const domain = 'images'

const ImageId = Id.describe('The image (an integer id, as add_client_image answered)')
const TypeOf = ImageType.describe(`What the image is for on the site: ${IMAGE_TYPES.join(', ')} (other: none of these)`)
const StatusOf = ImageSyncStatus.describe(
  "Where the image stands against the site's media library: pending (never pushed), pushed (its current version is there), changed (replaced since its push)",
)

const ImageInput = z
  .strictObject({
    client_id: ClientId,
    filename: ImageFilename.describe(
      'The file name, as the media library shows it (e.g. van-front.jpg; no slashes): one image per file name of the client, so the same name again is a new version of that image',
    ),
    data_base64: z
      .string()
      .optional()
      .describe(
        'The image bytes as base64 (a data: URL prefix is accepted), bounded by the request body limit (1 MB by default). Give this or source_url',
      ),
    source_url: z
      .string()
      .max(IMAGE_SOURCE_URL_MAX_LENGTH)
      .optional()
      .describe(
        `An http(s) address to fetch the image from (at most ${IMAGE_MAX_BYTES} bytes; private addresses only if SITE_ALLOWED_HOSTS allows them). Give this or data_base64`,
      ),
    image_type: TypeOf.optional().describe(`What the image is for: ${IMAGE_TYPES.join(', ')} (default other)`),
    alt_text: z
      .string()
      .max(IMAGE_ALT_TEXT_MAX_LENGTH)
      .optional()
      .describe(`The alt text, stored as given (at most ${IMAGE_ALT_TEXT_MAX_LENGTH} characters; default '')`),
    title: z
      .string()
      .max(IMAGE_TITLE_MAX_LENGTH)
      .optional()
      .describe(`The image's title in the media library (at most ${IMAGE_TITLE_MAX_LENGTH} characters; default '')`),
    page_id: PageId.nullable()
      .optional()
      .describe("The client's page the image is shown on (default null); get_page_images lists a page's images"),
  })
  .describe('The image: the client, a file name, and its bytes as data_base64 or an address to fetch as source_url')

const ImageSchema = z
  .object({
    id: ImageId,
    client_id: ClientId,
    filename: z.string().describe('The file name (one image per file name of the client)'),
    image_type: TypeOf,
    alt_text: z.string().describe("The alt text as given; '' when none"),
    title: z.string().describe("The title; '' when none"),
    page_id: Id.nullable().describe('The page it is shown on; null when none was given'),
    source_url: z.string().describe("Where it was fetched from; '' when uploaded"),
    version: z.number().int().describe('1 for the first upload; up by one each time the same file name brings different content'),
    status: StatusOf,
    format: z.string().describe('jpeg, png, gif, webp or avif, as the content says (not the file name)'),
    content_type: z.string().describe('The stored file’s media type'),
    width: z.number().int().describe('Width in pixels (upright)'),
    height: z.number().int().describe('Height in pixels (upright)'),
    bytes: z.number().int().describe('Size of the stored file (re-encoded, EXIF stripped)'),
    sha256: z.string().describe('Hex sha256 of the stored file: its version'),
    url: z.string().describe('Where the stored file is served: GET this path with a key of the organization'),
    webp: z
      .object({
        url: z.string().describe('Where the WebP derivative is served'),
        width: z.number().int().describe('Its width in pixels'),
        height: z.number().int().describe('Its height in pixels'),
        bytes: z.number().int().describe('Its size'),
      })
      .describe('The WebP derivative (at most 2560 pixels on its longer side)'),
    wp_attachment_id: Id.nullable().describe('The WordPress attachment it is in the media library as; null when none is recorded'),
    pushed_at: z.string().nullable().describe('When its version in the media library was recorded (ISO 8601); null: never'),
    created_at: z.string().describe('When it was first stored (ISO 8601)'),
    updated_at: z.string().describe('When it last changed (ISO 8601)'),
  })
  .describe('A client image')

const exampleImage = {
  id: 21,
  client_id: 34,
  filename: 'van-front.jpg',
  image_type: 'hero' as const,
  alt_text: 'Acme Plumbing van outside a house in Austin',
  title: 'Our van',
  page_id: 9,
  source_url: '',
  version: 1,
  status: 'pending' as const,
  format: 'jpeg',
  content_type: 'image/jpeg',
  width: 1600,
  height: 900,
  bytes: 183422,
  sha256: '3f0a5c1de2b94a7e8c6d1f0b2a4e6c8d0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c',
  url: '/api/v1/files/images/5/34/3f0a5c1de2b94a7e8c6d1f0b2a4e6c8d0f1a3b5c7d9e1f2a4b6c8d0e2f4a6b8c.jpg',
  webp: {
    url: '/api/v1/files/images/5/34/9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d.webp',
    width: 1600,
    height: 900,
    bytes: 96120,
  },
  wp_attachment_id: null,
  pushed_at: null,
  created_at: '2026-11-20T09:40:00.000Z',
  updated_at: '2026-11-20T09:40:00.000Z',
}

const BulkItem = z.strictObject({
  filename: z.string().describe("The image's file name, as add_client_image recorded it"),
  client_id: ClientId,
  image_type: z.string().describe(`The new type: ${IMAGE_TYPES.join(', ')} (another value fails this item only)`),
  wp_attachment_id: Id.nullable()
    .optional()
    .describe(
      'The WordPress attachment the image is in the media library as: recorded, its current version counts as pushed. Null or left out: the recorded one stays',
    ),
})

const BulkOutcome = z.enum(['updated', 'unchanged', 'not_found', 'invalid_image_type', 'client_deleted'])

const BulkResult = z
  .object({
    updated: z.number().int().describe('How many items changed an image'),
    results: z
      .array(
        z.object({
          filename: z.string().describe('The item’s file name'),
          client_id: z.number().int().describe('The item’s client'),
          image_id: Id.nullable().describe('The image it matched; null when none'),
          outcome: BulkOutcome.describe(
            'updated; unchanged (it already had these values); not_found (no such client of the organization, or no image of that file name); invalid_image_type; client_deleted',
          ),
          detail: z.string().optional().describe('Why not, when it was not updated'),
        }),
      )
      .describe('One per item, in the order given'),
  })
  .describe('The count of updated images and every item’s outcome')

const SyncStateSchema = z
  .object({
    image_id: ImageId,
    filename: z.string().describe('The file name'),
    version: z.number().int().describe('Its current version'),
    sha256: z.string().describe('The current version’s sha256'),
    pushed_sha256: z.string().nullable().describe('The sha256 of the version in the media library; null: never pushed'),
    status: StatusOf,
    in_sync: z.boolean().describe('Whether the current version is the one in the media library (status pushed)'),
    wp_attachment_id: Id.nullable().describe('The WordPress attachment; null when none is recorded'),
    pushed_at: z.string().nullable().describe('When the pushed version was recorded (ISO 8601); null: never'),
  })
  .describe("An image's sync state")

const StatsSchema = z
  .object({
    client_id: ClientId,
    total: z.number().int().describe('Images of the client'),
    pending: z.number().int().describe('Never pushed'),
    pushed: z.number().int().describe('Current version in the media library'),
    changed: z.number().int().describe('Replaced since their push'),
    out_of_sync: z.number().int().describe('pending + changed'),
    with_alt_text: z.number().int().describe('With alt text'),
    without_alt_text: z.number().int().describe('Without alt text'),
    bytes: z.number().int().describe('Size of the stored files together'),
    webp_bytes: z.number().int().describe('Size of the WebP derivatives together'),
    last_pushed_at: z.string().nullable().describe('The latest push recorded (ISO 8601); null: never'),
  })
  .describe("The client's images counted")

/** The bytes the image object carries or names: base64 decoded, or fetched through the site policy. */
async function imageBytes(settings: ServiceSettings, image: z.infer<typeof ImageInput>): Promise<{ data: Buffer; sourceUrl: string }> {
  const given = (image.data_base64 !== undefined ? 1 : 0) + (image.source_url !== undefined ? 1 : 0)
  if (given !== 1) throw new ApiError('validation_failed', 'image: give exactly one of data_base64 or source_url')
  if (image.data_base64 !== undefined) {
    const text = image.data_base64.replace(/^data:[^,]{0,200},/, '').replace(/\s+/g, '')
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1)
      throw new ApiError('validation_failed', 'image.data_base64: not base64 (A–Z, a–z, 0–9, +, / and = padding)')
    if (Math.floor((text.length * 3) / 4) > IMAGE_MAX_BYTES + 2)
      throw new DomainError(
        'image_too_large',
        'The image is too large',
        `about ${Math.floor((text.length * 3) / 4)} bytes; at most ${IMAGE_MAX_BYTES}`,
      )
    return { data: Buffer.from(text, 'base64'), sourceUrl: '' }
  }
  const publishing = settings.publishing
  if (!publishing) throw new ApiError('service_unavailable', 'fetching images is not configured in this process; send data_base64')
  const sourceUrl = image.source_url!.trim()
  const data = await fetchImage(
    {
      allowList: publishing.allowList,
      resolve: publishing.resolve,
      timeoutMs: publishing.timeoutMs,
      maxBytes: IMAGE_MAX_BYTES,
      userAgent: 'RankRelay/1.0 (images)',
    },
    sourceUrl,
  )
  return { data, sourceUrl }
}

export const imagesRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'add_client_image',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Store a client's image, given as data_base64 or fetched from source_url: measured, re-encoded without EXIF, with a WebP derivative; both served under /api/v1/files/. " +
      `JPEG, PNG, GIF, WebP or AVIF only (415 image_not_supported: SVG, HTML, anything else), at most ${IMAGE_MAX_BYTES} bytes (413 image_too_large) and 50 megapixels (422 image_too_many_pixels). ` +
      'The same file name again is a new version of that image (same id; the same content again changes nothing). Returns the image id.',
    example: {
      params: {
        image: {
          client_id: 34,
          filename: 'van-front.jpg',
          source_url: 'https://www.acmeplumbing.com/wp-content/uploads/van-front.jpg',
          image_type: 'hero',
          alt_text: 'Acme Plumbing van outside a house in Austin',
        },
      },
      result: 21,
    },
    params: z.strictObject({ image: ImageInput }),
    result: z.number().int().describe('The image id'),
    async handler(ctx) {
      const image = ctx.params.image
      await visibleClient(ctx.read, ctx.orgId, image.client_id)
      const pageId = image.page_id ?? null
      if (pageId !== null) {
        const page = await visiblePage(ctx.read, ctx.orgId, pageId)
        if (page.client_id !== image.client_id)
          throw new ApiError('validation_failed', `image.page_id: page ${pageId} belongs to another client`)
      }
      const { data, sourceUrl } = await imageBytes(ctx.settings, image)
      const added = await addClientImage(ctx.write, ctx.files, ctx.command, {
        callerOrgId: ctx.orgId,
        clientId: image.client_id,
        data,
        filename: image.filename,
        imageType: image.image_type ?? 'other',
        altText: image.alt_text ?? '',
        title: image.title ?? '',
        pageId,
        sourceUrl,
      })
      return added.imageId
    },
  }),
  rpc({
    name: 'bulk_update_image_types',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      `Set the type of many images (matched by client_id and file name), and record the WordPress attachment each is in the media library as (its current version then counts as pushed). At most ${IMAGE_BULK_MAX_ITEMS} items; ` +
      'each item succeeds or fails on its own. Returns the count updated and every item’s outcome.',
    example: {
      params: {
        updates: [
          { filename: 'van-front.jpg', client_id: 34, image_type: 'hero', wp_attachment_id: 812 },
          { filename: 'missing.png', client_id: 34, image_type: 'gallery', wp_attachment_id: 813 },
        ],
      },
      result: {
        updated: 1,
        results: [
          { filename: 'van-front.jpg', client_id: 34, image_id: 21, outcome: 'updated' as const },
          {
            filename: 'missing.png',
            client_id: 34,
            image_id: null,
            outcome: 'not_found' as const,
            detail: 'client 34 has no image missing.png',
          },
        ],
      },
    },
    params: z.strictObject({
      updates: z.array(BulkItem).min(1).max(IMAGE_BULK_MAX_ITEMS).describe(`The changes, at most ${IMAGE_BULK_MAX_ITEMS}`),
    }),
    result: BulkResult,
    async handler(ctx) {
      const results: z.infer<typeof BulkResult>['results'] = []
      for (const item of ctx.params.updates) {
        const base = { filename: item.filename, client_id: item.client_id }
        const type = ImageType.safeParse(item.image_type)
        if (!type.success) {
          results.push({
            ...base,
            image_id: null,
            outcome: 'invalid_image_type',
            detail: `${item.image_type.slice(0, 100)} is not one of ${IMAGE_TYPES.join(', ')}`,
          })
          continue
        }
        try {
          await visibleClient(ctx.read, ctx.orgId, item.client_id)
        } catch (error) {
          if (!(error instanceof NotFoundError)) throw error
          results.push({ ...base, image_id: null, outcome: 'not_found', detail: `client ${item.client_id} not found` })
          continue
        }
        const row = await imageByFilename(ctx.read, item.client_id, item.filename.trim())
        if (!row) {
          results.push({
            ...base,
            image_id: null,
            outcome: 'not_found',
            detail: `client ${item.client_id} has no image ${item.filename.slice(0, 255)}`,
          })
          continue
        }
        try {
          const done = await updateImageType(ctx.write, ctx.command, {
            callerOrgId: ctx.orgId,
            clientId: item.client_id,
            imageId: row.id,
            imageType: type.data,
            wpAttachmentId: item.wp_attachment_id ?? null,
          })
          results.push({ ...base, image_id: row.id, outcome: done.updated ? 'updated' : 'unchanged' })
        } catch (error) {
          if (error instanceof DomainError && error.code === 'client_deleted') {
            results.push({ ...base, image_id: row.id, outcome: 'client_deleted', detail: `client ${item.client_id} is deleted` })
            continue
          }
          throw error
        }
      }
      return { updated: results.filter((r) => r.outcome === 'updated').length, results }
    },
  }),
  rpc({
    name: 'get_images_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's images, oldest first, optionally only one sync status and one type.",
    example: { params: { client_id: 34, status: 'pending', image_type: 'hero' }, result: [exampleImage] },
    params: z.strictObject({
      client_id: ClientId,
      status: StatusOf.optional().describe('Only this sync status: pending, pushed or changed (default: every one)'),
      image_type: TypeOf.optional().describe('Only this type (default: every one)'),
    }),
    paginated: { maxLimit: 1000, defaultLimit: 500 },
    result: z.array(ImageSchema).describe('The images'),
    async handler(ctx) {
      const p = ctx.params
      const client = await visibleClient(ctx.read, ctx.orgId, p.client_id)
      const rows = await imagesForClient(ctx.read, client.id, { status: p.status, imageType: p.image_type, ...ctx.page! })
      return rows.map(clientImageView)
    },
  }),
  rpc({
    name: 'get_image_stats',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's images counted: by sync status, with and without alt text, their sizes and the latest push.",
    example: {
      params: { client_id: 34 },
      result: {
        client_id: 34,
        total: 12,
        pending: 3,
        pushed: 8,
        changed: 1,
        out_of_sync: 4,
        with_alt_text: 10,
        without_alt_text: 2,
        bytes: 2210455,
        webp_bytes: 1104220,
        last_pushed_at: '2026-11-20T10:00:00.000Z',
      },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: StatsSchema,
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return imageStats(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_image_type_stats',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "The client's images counted per type (only the types it has), most first.",
    example: {
      params: { client_id: 34 },
      result: [
        { image_type: 'gallery' as const, total: 7, pushed: 5, out_of_sync: 2, without_alt_text: 1 },
        { image_type: 'hero' as const, total: 2, pushed: 2, out_of_sync: 0, without_alt_text: 0 },
      ],
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .array(
        z.object({
          image_type: TypeOf,
          total: z.number().int().describe('Images of the type'),
          pushed: z.number().int().describe('Of them, current version in the media library'),
          out_of_sync: z.number().int().describe('Of them, pending or changed'),
          without_alt_text: z.number().int().describe('Of them, without alt text'),
        }),
      )
      .describe('One row per type the client has'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return imageTypeStats(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_page_images',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The images recorded as shown on a page (add_client_image with its page_id), oldest first.',
    example: { params: { page_id: 9 }, result: [exampleImage] },
    params: z.strictObject({ page_id: PageId }),
    result: z.array(ImageSchema).describe('The page’s images'),
    async handler(ctx) {
      const page = await visiblePage(ctx.read, ctx.orgId, ctx.params.page_id)
      return (await imagesForPage(ctx.read, page.id)).map(clientImageView)
    },
  }),
  rpc({
    name: 'get_image_sync_states_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Every image of the client against the site's media library: its current version, the pushed one, and whether they are the same.",
    example: {
      params: { client_id: 34 },
      result: [
        {
          image_id: 21,
          filename: 'van-front.jpg',
          version: 2,
          sha256: exampleImage.sha256,
          pushed_sha256: '8c1e3a5b7d9f1e2c4a6b8d0f2e4c6a8b0d2f4e6c8a0b2d4f6e8c0a2b4d6f8e0a',
          status: 'changed' as const,
          in_sync: false,
          wp_attachment_id: 812,
          pushed_at: '2026-11-18T08:00:00.000Z',
        },
      ],
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(SyncStateSchema).describe('One per image, oldest first'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const rows = await imagesForClient(ctx.read, client.id, { limit: Number.MAX_SAFE_INTEGER, offset: 0 })
      return rows.map((r) => {
        const status = syncStatusOf(r.sha256, r.pushed_sha256)
        return {
          image_id: r.id,
          filename: r.filename,
          version: r.version,
          sha256: r.sha256,
          pushed_sha256: r.pushed_sha256,
          status,
          in_sync: status === 'pushed',
          wp_attachment_id: r.wp_attachment_id,
          pushed_at: r.pushed_at ? r.pushed_at.toISOString() : null,
        }
      })
    },
  }),
  rpc({
    name: 'get_images_out_of_sync',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's images whose current version is not in the site's media library (never pushed, or changed since), oldest first.",
    example: { params: {}, result: [exampleImage] },
    params: z.strictObject({}),
    paginated: { maxLimit: 1000, defaultLimit: 500 },
    result: z.array(ImageSchema).describe('The images out of sync'),
    async handler(ctx) {
      return (await imagesOutOfSync(ctx.read, ctx.orgId, ctx.page!)).map(clientImageView)
    },
  }),
  rpc({
    name: 'count_images_out_of_sync',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "How many of the organization's images are not in the site's media library at their current version.",
    example: { params: {}, result: 4 },
    params: z.strictObject({}),
    result: z.number().int().describe('The count'),
    async handler(ctx) {
      return countImagesOutOfSync(ctx.read, ctx.orgId)
    },
  }),
  rpc({
    name: 'get_last_image_push_timestamp_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: "When the client's images were last recorded in the site's media library (ISO 8601); null when never.",
    example: { params: { client_id: 34 }, result: '2026-11-20T10:00:00.000Z' },
    params: z.strictObject({ client_id: ClientId }),
    result: z.string().nullable().describe('The latest push (ISO 8601); null: never'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return lastImagePushAt(ctx.read, client.id)
    },
  }),
]
