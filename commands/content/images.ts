import { clientImages, type ClientImagesState, findImageByFilename } from '../../domain/content/images/client-images.js'
import type { ImageType } from '../../domain/content/images/rules.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import type { BlobStore } from '../files/blob-store.js'
import { processImage } from './images/process.js'

/** The client's images, folded from its stream (consistent with the last write). */
export function loadClientImages(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<ClientImagesState> {
  return loadState(deps.store, clientImages, clientId)
}

/** Where an image's files live: content-addressed, so a version never overwrites another and storing the same bytes again is harmless. */
export const imageBlobPath = (orgId: number, clientId: number, sha256: string, extension: string) =>
  `images/${orgId}/${clientId}/${sha256}.${extension}`

export interface AddClientImageInput {
  readonly callerOrgId: number | null
  readonly clientId: number
  /** The image's bytes as received (decoded from base64, or fetched from sourceUrl). */
  readonly data: Buffer
  readonly filename: string
  readonly imageType: ImageType
  readonly altText: string
  readonly title: string
  readonly pageId: number | null
  /** Where it was fetched from; '' for an upload. */
  readonly sourceUrl: string
}

/**
 * add_client_image: measures and converts the image (commands/content/images/process.ts: nothing is stored when
 * it is refused), stores the EXIF-free file and its WebP derivative through the blob store, then records
 * ClientImageStored in `client_images-<client_id>`. The files are written first, so a recorded image always has
 * its files; a file name the client already has is a new version of that image (same id).
 */
export async function addClientImage(
  deps: WriteDeps,
  blobs: BlobStore,
  context: CommandContext,
  input: AddClientImageInput,
): Promise<{ imageId: number; stored: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const orgId = client.orgId
  const processed = await processImage(input.data)
  const extension = processed.format === 'jpeg' ? 'jpg' : processed.format
  const path = imageBlobPath(orgId, input.clientId, processed.stored.sha256, extension)
  const webpPath = imageBlobPath(orgId, input.clientId, processed.webp.sha256, 'webp')
  await blobs.put(path, processed.stored.bytes, { orgId, contentType: processed.contentType })
  if (webpPath !== path) await blobs.put(webpPath, processed.webp.bytes, { orgId, contentType: 'image/webp' })
  const holder = findImageByFilename(await loadClientImages(deps, input.clientId), input.filename)
  const imageId = holder?.stored.image_id ?? (await deps.ids.next('client_image'))
  const outcome = await handleCommand(deps, {
    aggregate: clientImages,
    id: input.clientId,
    command: {
      type: 'StoreClientImage',
      image: {
        client_id: input.clientId,
        image_id: imageId,
        filename: input.filename,
        image_type: input.imageType,
        alt_text: input.altText,
        title: input.title,
        page_id: input.pageId,
        source_url: input.sourceUrl,
        format: processed.format,
        content_type: processed.contentType,
        width: processed.stored.width,
        height: processed.stored.height,
        bytes: processed.stored.bytes.length,
        sha256: processed.stored.sha256,
        path,
        webp_path: webpPath,
        webp_width: processed.webp.width,
        webp_height: processed.webp.height,
        webp_bytes: processed.webp.bytes.length,
        webp_sha256: processed.webp.sha256,
      },
    },
    context,
    orgId,
  })
  // A racing upload of the same name may have made the image first: the event names the id it went to.
  const event = outcome.events[0]
  const id = event?.type === 'ClientImageStored' ? event.data.image_id : imageId
  return { imageId: id, stored: outcome.events.length > 0, position: outcome.position }
}

/**
 * One item of bulk_update_image_types: the image's type, and (when given) the WordPress attachment it is in
 * the media library as, which counts its current version as pushed. The same values again change nothing.
 */
export async function updateImageType(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; clientId: number; imageId: number; imageType: ImageType; wpAttachmentId: number | null },
): Promise<{ updated: boolean; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: clientImages,
    id: input.clientId,
    command: {
      type: 'UpdateImageType',
      client_id: input.clientId,
      image_id: input.imageId,
      image_type: input.imageType,
      wp_attachment_id: input.wpAttachmentId,
    },
    context,
    orgId: client.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}
