import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { ImagesEvent, StoredImage } from './events.js'
import type { ImageType } from './rules.js'

/**
 * A client's images: one stream, `client_images-<client_id>`, so "one image per file name of the client" is
 * decided against them all with one append (two uploads of the same name racing make one image, two versions).
 */
export const clientImagesStream = (clientId: number) => `client_images-${clientId}`

export interface ImageRecord {
  /** The image as last stored (its version, file, derivative and descriptive fields). */
  readonly stored: StoredImage
  readonly wpAttachmentId: number | null
  readonly pushedSha256: string | null
}

export interface ClientImagesState {
  readonly clientId: number
  readonly images: readonly ImageRecord[]
}

/** What add_client_image stores: everything of ClientImageStored but the version, which the stream decides. */
export type ImageToStore = Omit<StoredImage, 'version'>

export type ClientImagesCommand =
  | { type: 'StoreClientImage'; image: ImageToStore }
  | {
      type: 'UpdateImageType'
      client_id: number
      image_id: number
      image_type: ImageType
      /** The attachment to record; null leaves the recorded one as it is. */
      wp_attachment_id: number | null
    }

const initialState = (): ClientImagesState => ({ clientId: 0, images: [] })

export function findImage(state: ClientImagesState, imageId: number): ImageRecord | undefined {
  return state.images.find((i) => i.stored.image_id === imageId)
}

export function findImageByFilename(state: ClientImagesState, filename: string): ImageRecord | undefined {
  return state.images.find((i) => i.stored.filename === filename)
}

function evolve(state: ClientImagesState, event: ImagesEvent): ClientImagesState {
  switch (event.type) {
    case 'ClientImageStored': {
      const d = event.data
      const existing = findImage(state, d.image_id)
      if (!existing) {
        return { clientId: d.client_id, images: [...state.images, { stored: d, wpAttachmentId: null, pushedSha256: null }] }
      }
      return { ...state, images: state.images.map((i) => (i === existing ? { ...i, stored: d } : i)) }
    }
    case 'ClientImageTypeUpdated': {
      const d = event.data
      return {
        ...state,
        images: state.images.map((i) =>
          i.stored.image_id === d.image_id
            ? { stored: { ...i.stored, image_type: d.image_type }, wpAttachmentId: d.wp_attachment_id, pushedSha256: d.pushed_sha256 }
            : i,
        ),
      }
    }
    default:
      return assertNever(event)
  }
}

const sameStored = (a: StoredImage, b: StoredImage) => (Object.keys(a) as (keyof StoredImage)[]).every((k) => a[k] === b[k])

function decide(command: ClientImagesCommand, state: ClientImagesState): ImagesEvent[] {
  switch (command.type) {
    case 'StoreClientImage': {
      const image = command.image
      // The file name decides which image this is: a name the client has is a new version of that image,
      // whatever id the request allocated (a retried or racing upload of the same name makes no second image).
      const holder = findImageByFilename(state, image.filename)
      if (!holder) {
        if (findImage(state, image.image_id)) {
          throw new DomainError('already_exists', 'The image id is taken', `image ${image.image_id} has another file name`)
        }
        return [{ type: 'ClientImageStored', data: { ...image, version: 1 } }]
      }
      const previous = holder.stored
      const contentChanged = previous.sha256 !== image.sha256
      const next: StoredImage = {
        ...image,
        image_id: previous.image_id,
        version: contentChanged ? previous.version + 1 : previous.version,
      }
      if (sameStored(previous, next)) return [] // the same image again (a retried request) changes nothing
      return [{ type: 'ClientImageStored', data: next }]
    }
    case 'UpdateImageType': {
      const image = findImage(state, command.image_id)
      if (!image) throw new NotFoundError('image', command.image_id)
      const recording = command.wp_attachment_id !== null
      const next = {
        image_type: command.image_type,
        wp_attachment_id: recording ? command.wp_attachment_id : image.wpAttachmentId,
        pushed_sha256: recording ? image.stored.sha256 : image.pushedSha256,
      }
      const unchanged =
        next.image_type === image.stored.image_type &&
        next.wp_attachment_id === image.wpAttachmentId &&
        next.pushed_sha256 === image.pushedSha256
      if (unchanged) return [] // the same values again change nothing
      return [
        {
          type: 'ClientImageTypeUpdated',
          data: { client_id: command.client_id, image_id: image.stored.image_id, ...next, attachment_recorded: recording },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const clientImages: Aggregate<ClientImagesState, ClientImagesCommand, ImagesEvent> = {
  streamOf: clientImagesStream,
  initialState,
  evolve,
  decide,
  entity: 'image',
}
