import { createRequire } from 'node:module'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { loadState } from '../../commands/command-handler.js'
import { addClientImage, updateImageType } from '../../commands/content/images.js'
import type { BlobStore } from '../../commands/files/blob-store.js'
import type { ImageType } from '../../domain/content/images/rules.js'
import { pageSet } from '../../domain/pages/page-set.js'

const requireFromHere = createRequire(import.meta.url)
type SharpFactory = typeof import('sharp')['default']

/**
 * The sandbox's fictional client images, generated here (small flat-colour pictures, so nothing is downloaded
 * and every reset stores the same bytes at the same content-addressed paths): a hero on the home page recorded
 * in the media library, a team photo replaced after its push (changed), and a logo never pushed (pending), so
 * every status, the stats and the out-of-sync lists show something.
 */
const IMAGES: readonly {
  filename: string
  type: ImageType
  alt: string
  colour: string
  width: number
  height: number
  format: 'jpeg' | 'png'
}[] = [
  {
    filename: 'rapid-rooter-van.jpg',
    type: 'hero',
    alt: 'Rapid Rooter van outside a house',
    colour: '#1d4e89',
    width: 320,
    height: 180,
    format: 'jpeg',
  },
  { filename: 'team-2026.jpg', type: 'team', alt: 'The Rapid Rooter team', colour: '#2e8b57', width: 240, height: 160, format: 'jpeg' },
  { filename: 'logo.png', type: 'logo', alt: '', colour: '#f4a300', width: 120, height: 120, format: 'png' },
]

async function picture(colour: string, width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const sharp = requireFromHere('sharp') as SharpFactory
  const image = sharp({ create: { width, height, channels: 3, background: colour } })
  return format === 'jpeg' ? image.jpeg({ quality: 80 }).toBuffer() : image.png().toBuffer()
}

export async function seedSandboxImages(
  write: WriteDeps,
  ctx: CommandContext,
  orgId: number,
  clientId: number,
  blobs: BlobStore,
): Promise<void> {
  const pages = (await loadState(write.store, pageSet, clientId)).pages
  const home = pages.length > 0 ? Math.min(...pages.map((p) => p.id)) : null
  const ids: number[] = []
  for (const image of IMAGES) {
    const { imageId } = await addClientImage(write, blobs, ctx, {
      callerOrgId: orgId,
      clientId,
      data: await picture(image.colour, image.width, image.height, image.format),
      filename: image.filename,
      imageType: image.type,
      altText: image.alt,
      title: image.filename.replace(/\.[a-z]+$/, ''),
      pageId: image.type === 'hero' ? home : null,
      sourceUrl: '',
    })
    ids.push(imageId)
  }
  // The hero and the team photo are in the site's media library; the team photo was replaced since.
  await updateImageType(write, ctx, { callerOrgId: orgId, clientId, imageId: ids[0]!, imageType: 'hero', wpAttachmentId: 301 })
  await updateImageType(write, ctx, { callerOrgId: orgId, clientId, imageId: ids[1]!, imageType: 'team', wpAttachmentId: 302 })
  await addClientImage(write, blobs, ctx, {
    callerOrgId: orgId,
    clientId,
    data: await picture('#3cb371', 240, 160, 'jpeg'),
    filename: 'team-2026.jpg',
    imageType: 'team',
    altText: 'The Rapid Rooter team, spring 2026',
    title: 'team-2026',
    pageId: null,
    sourceUrl: '',
  })
}
