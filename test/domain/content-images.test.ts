/**
 * Client images, pure: the client's images aggregate (a first image, the same image again, a new version by
 * file name whatever id the request allocated, descriptive changes without a new version, a taken id), the
 * type and attachment updates (recording, keeping, the same values again, an unknown image), and the rules
 * (sync status, file names).
 */
import t from 'tap'
import { clientImages, type ImageToStore } from '../../domain/content/images/client-images.js'
import type { ImagesEvent } from '../../domain/content/images/events.js'
import { ImageFilename, syncStatusOf } from '../../domain/content/images/rules.js'
import { spec } from './given-when-then.js'

const given = spec(clientImages)
const sha = (c: string) => c.repeat(64)

const image = (overrides: Partial<ImageToStore> = {}): ImageToStore => ({
  client_id: 7,
  image_id: 21,
  filename: 'van.jpg',
  image_type: 'hero',
  alt_text: 'The van',
  title: '',
  page_id: null,
  source_url: '',
  format: 'jpeg',
  content_type: 'image/jpeg',
  width: 64,
  height: 48,
  bytes: 1200,
  sha256: sha('a'),
  path: `images/1/7/${sha('a')}.jpg`,
  webp_path: `images/1/7/${sha('b')}.webp`,
  webp_width: 64,
  webp_height: 48,
  webp_bytes: 800,
  webp_sha256: sha('b'),
  ...overrides,
})

const stored = (overrides: Partial<ImageToStore> = {}, version = 1): ImagesEvent => ({
  type: 'ClientImageStored',
  data: { ...image(overrides), version },
})

t.test('storing: first version, the same again, a new version by file name, a descriptive change', async (t) => {
  given().when({ type: 'StoreClientImage', image: image() }).then(t, [stored()])
  given(stored())
    .when({ type: 'StoreClientImage', image: image({ image_id: 99 }) })
    .thenNothingHappens(t)
  const next = { sha256: sha('c'), path: `images/1/7/${sha('c')}.jpg` }
  given(stored())
    .when({ type: 'StoreClientImage', image: image({ image_id: 99, ...next }) })
    .then(t, [stored(next, 2)])
  given(stored())
    .when({ type: 'StoreClientImage', image: image({ alt_text: 'A better description' }) })
    .then(t, [stored({ alt_text: 'A better description' }, 1)])
  given(stored())
    .when({ type: 'StoreClientImage', image: image({ filename: 'other.jpg' }) })
    .thenThrows(t, 'already_exists')
})

t.test('type and attachment: recorded (pushed), kept, the same again, a new version after the push', async (t) => {
  const update = (image_type: 'hero' | 'logo', wp_attachment_id: number | null) =>
    ({ type: 'UpdateImageType', client_id: 7, image_id: 21, image_type, wp_attachment_id }) as const
  const recorded: ImagesEvent = {
    type: 'ClientImageTypeUpdated',
    data: { client_id: 7, image_id: 21, image_type: 'hero', wp_attachment_id: 812, pushed_sha256: sha('a'), attachment_recorded: true },
  }
  given(stored()).when(update('hero', 812)).then(t, [recorded])
  given(stored(), recorded).when(update('hero', 812)).thenNothingHappens(t)
  given(stored(), recorded).when(update('hero', null)).thenNothingHappens(t)
  given(stored(), recorded)
    .when(update('logo', null))
    .then(t, [{ type: 'ClientImageTypeUpdated', data: { ...recorded.data, image_type: 'logo', attachment_recorded: false } }])
  // Replaced after the push: recording the same attachment again pushes the new version.
  given(stored(), recorded, stored({ sha256: sha('c') }, 2))
    .when(update('hero', 812))
    .then(t, [{ type: 'ClientImageTypeUpdated', data: { ...recorded.data, pushed_sha256: sha('c') } }])
  given(stored())
    .when({ ...update('hero', 1), image_id: 5 })
    .thenThrows(t, 'not_found')
})

t.test('rules', async (t) => {
  t.equal(syncStatusOf(sha('a'), null), 'pending')
  t.equal(syncStatusOf(sha('a'), sha('a')), 'pushed')
  t.equal(syncStatusOf(sha('a'), sha('b')), 'changed')
  t.ok(ImageFilename.safeParse('Team photo (2026).JPG').success, 'spaces and brackets are fine')
  for (const bad of ['', '   ', 'a/b.jpg', 'a\\b.jpg', 'tab\there.jpg', 'x'.repeat(256)])
    t.notOk(ImageFilename.safeParse(bad).success, `refused: ${JSON.stringify(bad.slice(0, 20))}`)
})
