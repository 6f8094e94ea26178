import sharp from 'sharp'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

const picture = async (colour: string, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width: 24, height: 16, channels: 3, background: colour } })
  return (format === 'png' ? await image.png().toBuffer() : await image.jpeg().toBuffer()).toString('base64')
}

/**
 * The images sub-area's part of the realistic log, through HTTP: images added with defaults and with every
 * field, the same image again (no event), a new version under a known file name, types and attachments set in
 * bulk (an attachment recorded, a type only, the same values again), an image in the other organization and a
 * foreign item refused.
 */
export async function writeImagesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const red = await picture('#c00')
  await call<number>('add_client_image', { image: { client_id: plumbers, filename: 'red.png', data_base64: red } }, keys.orgA)
  await call<number>('add_client_image', { image: { client_id: plumbers, filename: 'red.png', data_base64: red } }, keys.orgA) // the same: no event
  await call<number>(
    'add_client_image',
    {
      image: {
        client_id: plumbers,
        filename: 'van.jpg',
        data_base64: await picture('#036', 'jpeg'),
        image_type: 'hero',
        alt_text: 'The van',
        title: 'Van',
      },
    },
    keys.orgA,
  )
  await call<number>(
    'add_client_image',
    { image: { client_id: heaters, filename: 'logo.png', data_base64: await picture('#fa0'), image_type: 'logo' } },
    keys.orgA,
  )
  await call(
    'bulk_update_image_types',
    {
      updates: [
        { filename: 'red.png', client_id: plumbers, image_type: 'gallery', wp_attachment_id: 501 },
        { filename: 'van.jpg', client_id: plumbers, image_type: 'hero', wp_attachment_id: 502 },
        { filename: 'logo.png', client_id: heaters, image_type: 'team' },
        { filename: 'none.png', client_id: plumbers, image_type: 'hero' },
      ],
    },
    keys.orgA,
  )
  // A new version of a pushed image (changed), then recorded again.
  await call<number>(
    'add_client_image',
    { image: { client_id: plumbers, filename: 'red.png', data_base64: await picture('#e00') } },
    keys.orgA,
  )
  await call(
    'bulk_update_image_types',
    { updates: [{ filename: 'red.png', client_id: plumbers, image_type: 'gallery', wp_attachment_id: 501 }] },
    keys.orgA,
  )
  await call<number>('add_client_image', { image: { client_id: bravo, filename: 'b.png', data_base64: await picture('#0a0') } }, keys.orgB)
  const foreign = await call<{ updated: number }>(
    'bulk_update_image_types',
    { updates: [{ filename: 'van.jpg', client_id: plumbers, image_type: 'logo', wp_attachment_id: 9 }] },
    keys.orgB,
  )
  if (foreign.updated !== 0) throw new Error('a foreign bulk_update_image_types item was applied')
}
