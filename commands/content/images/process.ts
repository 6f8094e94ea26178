import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import type { Sharp, SharpOptions } from 'sharp'
import { DomainError } from '../../../domain/shared/errors.js'
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  type ImageFormat,
  WEBP_MAX_SIDE,
} from '../../../domain/content/images/rules.js'

const requireFromHere = createRequire(import.meta.url)
/** sharp (libvips, a native binary), loaded by the first image, not with the app: most processes never measure one. */
const sharpModule = (): SharpFactory => requireFromHere('sharp') as SharpFactory
type SharpFactory = typeof import('sharp')['default']

export interface ProcessedFile {
  readonly bytes: Buffer
  readonly width: number
  readonly height: number
  readonly sha256: string
}

export interface ProcessedImage {
  readonly format: ImageFormat
  readonly contentType: string
  /** The image as stored: re-encoded in its own format, turned upright, every metadata block (EXIF, XMP, GPS) dropped. */
  readonly stored: ProcessedFile
  /** The WebP derivative, at most WEBP_MAX_SIDE on its longer side. */
  readonly webp: ProcessedFile
}

const notSupported = (detail: string) => new DomainError('image_not_supported', 'The file is not a supported image', detail)

/**
 * The format the first bytes say, before any decoder sees the file: only these reach libvips, so an SVG (which
 * librsvg would render, script and external references included), an HTML page named photo.jpg or a PDF is
 * refused here. Null: none of the accepted formats.
 */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const at = (offset: number, ascii: string) =>
    head.length >= offset + ascii.length && [...ascii].every((c, i) => head[offset + i] === c.charCodeAt(0))
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg'
  if (head.length >= 8 && head[0] === 0x89 && at(1, 'PNG\r\n\u001a\n')) return 'png'
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'gif'
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'webp'
  if (at(4, 'ftyp') && (at(8, 'avif') || at(8, 'avis'))) return 'avif'
  return null
}

/** What an unaccepted file looks like, for the refusal's detail. */
function whatItIs(head: Uint8Array): string {
  const text = Buffer.from(head.subarray(0, 512))
    .toString('latin1')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase()
  if (/^<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*(<!doctype svg|<svg)/.test(text) || text.startsWith('<svg'))
    return 'it is an SVG document; SVG is not accepted (it can carry script): upload it as PNG or WebP'
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<'))
    return 'it is HTML or XML text, not an image (a page answered where an image was expected?)'
  if (text.startsWith('%pdf')) return 'it is a PDF document'
  return 'its content is none of JPEG, PNG, GIF, WebP or AVIF'
}

/**
 * Measures and converts one image: refuses what is not an accepted raster image, what is over IMAGE_MAX_BYTES,
 * and what decodes to more than IMAGE_MAX_PIXELS (judged from the header before any pixel is decoded); returns
 * the stored file (EXIF stripped, upright) and its WebP derivative.
 */
export async function processImage(data: Buffer): Promise<ProcessedImage> {
  if (data.length === 0) throw notSupported('the file is empty')
  if (data.length > IMAGE_MAX_BYTES)
    throw new DomainError('image_too_large', 'The image is too large', `${data.length} bytes; at most ${IMAGE_MAX_BYTES}`)
  const format = sniffImageFormat(data.subarray(0, 32))
  if (format === null) throw notSupported(whatItIs(data.subarray(0, 512)))
  const sharp = sharpModule()
  let meta: Awaited<ReturnType<Sharp['metadata']>>
  try {
    // Header only: no pixels are decoded here, so the dimensions are known before anything is allocated.
    meta = await sharp(data, { limitInputPixels: false }).metadata()
  } catch (error) {
    throw notSupported(`it looks like ${format} but cannot be read: ${(error as Error).message.slice(0, 200)}`)
  }
  const expected = format === 'avif' ? 'heif' : format
  if (meta.format !== expected) throw notSupported(`it starts like ${format} but reads as ${meta.format ?? 'nothing'}`)
  const width = meta.width ?? 0
  const height = meta.pageHeight ?? meta.height ?? 0
  const frames = Math.max(1, meta.pages ?? 1)
  if (width < 1 || height < 1) throw notSupported('it has no dimensions')
  if (width * height * frames > IMAGE_MAX_PIXELS) {
    throw new DomainError(
      'image_too_many_pixels',
      'The image has too many pixels',
      `${width} × ${height}${frames > 1 ? ` × ${frames} frames` : ''} = ${width * height * frames} pixels; at most ${IMAGE_MAX_PIXELS}`,
    )
  }
  const animated = frames > 1
  const options: SharpOptions = { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error', animated }
  // An animated image has no EXIF orientation to apply (and libvips cannot rotate its frames as one).
  const input = () => (animated ? sharp(data, options) : sharp(data, options).rotate())
  try {
    const stored = await encode(reencode(input(), format))
    const webp = await encode(
      input().resize({ width: WEBP_MAX_SIDE, height: WEBP_MAX_SIDE, fit: 'inside', withoutEnlargement: true }).webp({ quality: 80 }),
    )
    return { format, contentType: IMAGE_CONTENT_TYPES[format], stored, webp }
  } catch (error) {
    if (error instanceof DomainError) throw error
    throw notSupported(`it looks like ${format} but cannot be decoded: ${(error as Error).message.slice(0, 200)}`)
  }
}

/** The image in its own format again: sharp writes no metadata unless asked, so EXIF, XMP and GPS are gone. */
function reencode(image: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 90 })
    case 'png':
      return image.png()
    case 'gif':
      return image.gif()
    case 'webp':
      return image.webp({ quality: 90 })
    case 'avif':
      return image.avif({ quality: 60 })
  }
}

async function encode(image: Sharp): Promise<ProcessedFile> {
  const { data, info } = await image.toBuffer({ resolveWithObject: true })
  const height = info.pageHeight ?? info.height
  return { bytes: data, width: info.width, height, sha256: createHash('sha256').update(data).digest('hex') }
}
