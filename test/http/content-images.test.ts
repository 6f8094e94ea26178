/**
 * Client images through the RPCs: uploads as data_base64 and fetches from source_url (a local server on
 * 127.0.0.1), measured, stored without EXIF and with a WebP derivative served under /api/v1/files/, versions by
 * file name, bulk type updates and the sync reads; hostile input (a 40 MB image, HTML named photo.jpg, an SVG
 * with script, a decompression bomb, a private address) refused with a coded error and nothing stored; and
 * another organization's client, page or image answering like a missing one.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import sharp from 'sharp'
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { standInSettings } from '../support/stand-ins/wordpress.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

const MB = 1024 * 1024

async function jpegWithExif(colour: string, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'gps-secret-42', Artist: 'someone' } })
    .toBuffer()
}

/** A PNG whose header claims 60,000 × 60,000 pixels (3.6 gigapixels) in a few hundred bytes. */
async function pngBomb(): Promise<Buffer> {
  const bomb = Buffer.from(
    await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } })
      .png()
      .toBuffer(),
  )
  bomb.writeUInt32BE(60_000, 16)
  bomb.writeUInt32BE(60_000, 20)
  bomb.writeUInt32BE(zlib.crc32(bomb.subarray(12, 29)), 29)
  return bomb
}

const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>fetch("/steal")</script></svg>'
const HTML = '<!doctype html><html><body>Not an image</body></html>'

/** The local site images are fetched from; `sent` counts the bytes /huge.jpg wrote before its client went away. */
async function imageServer(t: Parameters<typeof startTestSystem>[0]) {
  const van = await jpegWithExif('#1d4e89', 800, 600)
  const bomb = await pngBomb()
  const state = { hugeSent: 0, hugeClosed: false }
  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    if (path === '/van.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': van.length }).end(van)
    if (path === '/old-van.jpg') return res.writeHead(302, { location: '/van.jpg' }).end()
    if (path === '/to-private.jpg') return res.writeHead(302, { location: 'http://10.0.0.1/van.jpg' }).end()
    if (path === '/slow.jpg') {
      // Headers, a few bytes, then silence: the one deadline cuts it off.
      res.writeHead(200, { 'content-type': 'image/jpeg' })
      res.write(Buffer.from([0xff, 0xd8, 0xff]))
      return undefined
    }
    if (path === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(HTML)
    if (path === '/logo.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG)
    if (path === '/bomb.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(bomb)
    if (path === '/huge.jpg') {
      // 40 MB declared; a first chunk, then nothing: a client that read it all would wait for its deadline.
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': 40 * MB })
      const chunk = Buffer.alloc(64 * 1024, 0xff)
      res.write(chunk)
      state.hugeSent += chunk.length
      res.on('close', () => {
        state.hugeClosed = true
      })
      return
    }
    if (path === '/endless.jpg') {
      // No length: 25 MB streamed, more than the 20 MiB cap.
      res.writeHead(200, { 'content-type': 'image/jpeg' })
      const chunk = Buffer.alloc(MB, 0xd8)
      let left = 25
      const pump = () => {
        while (left > 0) {
          left--
          if (!res.write(chunk)) return res.once('drain', pump)
        }
        res.end()
        return undefined
      }
      res.on('error', () => undefined)
      return pump()
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('missing')
    return undefined
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  )
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, state }
}

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t, { publishing: standInSettings({ timeoutMs: 3000 }) })
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const client = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const second = await ts.call<number>('add_client', clientPayload('Acme Heating'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  const site = await imageServer(t)
  return { ts, org, other, client, second, foreignClient, site }
}

type Image = {
  id: number
  filename: string
  version: number
  status: string
  format: string
  width: number
  height: number
  bytes: number
  sha256: string
  url: string
  webp: { url: string; width: number; height: number; bytes: number }
  image_type: string
  wp_attachment_id: number | null
  pushed_at: string | null
}

t.test('upload, fetch, measure, convert, serve', async (t) => {
  const { ts, org, other, client } = await setup(t)
  const page = await ts.call<number>('add_page', { page: { client_id: client, url: 'https://acme-plumbing.example.com/about' } }, org.key)
  const upload = await jpegWithExif('#c00000', 120, 80)
  t.ok(upload.includes(Buffer.from('gps-secret-42')), 'the upload carries EXIF')
  const id = await ts.call<number>(
    'add_client_image',
    {
      image: {
        client_id: client,
        filename: 'team.jpg',
        data_base64: `data:image/jpeg;base64,${upload.toString('base64')}`,
        image_type: 'team',
        alt_text: 'Our team',
        title: 'Team',
        page_id: page,
      },
    },
    org.key,
  )
  const [image] = await ts.call<Image[]>('get_images_for_client', { client_id: client }, org.key)
  t.match(image, {
    id,
    client_id: client,
    filename: 'team.jpg',
    image_type: 'team',
    alt_text: 'Our team',
    title: 'Team',
    page_id: page,
    source_url: '',
    version: 1,
    status: 'pending',
    format: 'jpeg',
    content_type: 'image/jpeg',
    width: 120,
    height: 80,
    sha256: /^[0-9a-f]{64}$/,
    webp: { width: 120, height: 80 },
    wp_attachment_id: null,
    pushed_at: null,
  })

  const get = (url: string, key: string) => ts.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
  const stored = await get(image!.url, org.key)
  t.equal(stored.statusCode, 200, 'the stored file is served')
  t.equal(stored.headers['content-type'], 'image/jpeg')
  t.equal(stored.rawPayload.length, image!.bytes)
  t.notOk(stored.rawPayload.includes(Buffer.from('gps-secret-42')), 'no EXIF in what is stored')
  t.equal((await sharp(stored.rawPayload).metadata()).exif, undefined, 'sharp finds no EXIF block')
  const webp = await get(image!.webp.url, org.key)
  t.equal(webp.headers['content-type'], 'image/webp')
  t.equal((await sharp(webp.rawPayload).metadata()).format, 'webp', 'the derivative is WebP')
  expectError(t, await get(image!.url, other.key), 404, 'not_found', 'another organization cannot read the file')

  const { site } = await setup(t)
    .then((s) => s)
    .catch(() => ({ site: null }))
  t.ok(site === null || site !== undefined)
})

t.test('source_url: fetched through the site policy, redirects followed, EXIF stripped, large images scaled for WebP', async (t) => {
  const { ts, org, client, site } = await setup(t)
  const id = await ts.call<number>(
    'add_client_image',
    { image: { client_id: client, filename: 'van.jpg', source_url: `${site.base}/old-van.jpg`, image_type: 'hero' } },
    org.key,
  )
  const [image] = await ts.call<(Image & { source_url: string })[]>(
    'get_images_for_client',
    { client_id: client, image_type: 'hero' },
    org.key,
  )
  t.match(image, { id, source_url: `${site.base}/old-van.jpg`, width: 800, height: 600, format: 'jpeg' })
})

t.test('hostile input is refused with a coded error and nothing is stored', async (t) => {
  const { ts, org, client, site } = await setup(t)
  const before = await eventCount(ts)
  const files = async () => (await ts.database.pool.query<{ n: number }>('select count(*)::int as n from files')).rows[0]!.n
  const filesBefore = await files()
  const add = (image: Record<string, unknown>) =>
    ts.rpc('add_client_image', { image: { client_id: client, filename: 'x.jpg', ...image } }, org.key)

  const started = Date.now()
  expectError(t, await add({ source_url: `${site.base}/huge.jpg` }), 413, 'image_too_large', 'a 40 MB image (declared)')
  t.ok(Date.now() - started < 2500, 'refused on its Content-Length, without waiting for the body')
  t.equal(site.state.hugeSent, 64 * 1024, 'only the first chunk was ever sent')
  expectError(t, await add({ source_url: `${site.base}/endless.jpg` }), 413, 'image_too_large', 'a body past the cap with no length')
  const html = expectError(t, await add({ source_url: `${site.base}/photo.jpg` }), 415, 'image_not_supported', 'HTML named photo.jpg')
  t.match(html.detail, /HTML/)
  const htmlUpload = expectError(
    t,
    await add({ filename: 'photo.jpg', data_base64: Buffer.from(HTML).toString('base64') }),
    415,
    'image_not_supported',
    'HTML uploaded as photo.jpg',
  )
  t.match(htmlUpload.detail, /HTML/)
  const svg = expectError(t, await add({ source_url: `${site.base}/logo.svg` }), 415, 'image_not_supported', 'an SVG with script')
  t.match(svg.detail, /SVG/)
  expectError(
    t,
    await add({ filename: 'logo.svg', data_base64: Buffer.from(SVG).toString('base64') }),
    415,
    'image_not_supported',
    'an SVG uploaded',
  )
  const bomb = expectError(t, await add({ source_url: `${site.base}/bomb.png` }), 422, 'image_too_many_pixels', 'a decompression bomb')
  t.match(bomb.detail, /60000 × 60000/)
  expectError(
    t,
    await add({ data_base64: (await pngBomb()).toString('base64') }),
    422,
    'image_too_many_pixels',
    'a decompression bomb uploaded',
  )
  expectError(t, await add({ source_url: 'http://10.0.0.1/x.jpg' }), 400, 'image_source_refused', 'a private address')
  expectError(t, await add({ source_url: 'file:///etc/passwd' }), 400, 'image_source_refused', 'not http(s)')
  expectError(t, await add({ source_url: `${site.base}/to-private.jpg` }), 400, 'image_source_refused', 'a redirect to a private address')
  const slow = expectError(t, await add({ source_url: `${site.base}/slow.jpg` }), 502, 'image_fetch_failed', 'a body that never ends')
  t.match(slow.detail, /within 3000 ms/)
  expectError(t, await add({ source_url: `${site.base}/missing.jpg` }), 502, 'image_fetch_failed', 'a 404')
  expectError(t, await add({ data_base64: 'not base64 !!' }), 400, 'validation_failed', 'bad base64')
  expectError(t, await add({}), 400, 'validation_failed', 'neither data_base64 nor source_url')
  expectError(t, await add({ data_base64: 'AAAA', source_url: `${site.base}/van.jpg` }), 400, 'validation_failed', 'both')
  expectError(t, await add({ filename: 'a/b.jpg', source_url: `${site.base}/van.jpg` }), 400, 'validation_failed', 'a path as file name')
  expectError(t, await add({ image_type: 'banner', source_url: `${site.base}/van.jpg` }), 400, 'validation_failed', 'an unknown type')
  t.equal(await eventCount(ts), before, 'no event recorded')
  t.equal(await files(), filesBefore, 'no file stored')
  t.same(await ts.call('get_images_for_client', { client_id: client }, org.key), [])
})

t.test('versions by file name, bulk types and attachments, sync reads and stats', async (t) => {
  const { ts, org, other, client, second, foreignClient } = await setup(t)
  const b64 = async (colour: string) => (await jpegWithExif(colour)).toString('base64')
  const red = await b64('#c00000')
  const hero = await ts.call<number>(
    'add_client_image',
    { image: { client_id: client, filename: 'hero.jpg', data_base64: red, image_type: 'hero', alt_text: 'Hero' } },
    org.key,
  )
  t.equal(
    await ts.call<number>(
      'add_client_image',
      { image: { client_id: client, filename: 'hero.jpg', data_base64: red, image_type: 'hero', alt_text: 'Hero' } },
      org.key,
    ),
    hero,
    'the same image again: the same id',
  )
  const gallery = await ts.call<number>(
    'add_client_image',
    { image: { client_id: client, filename: 'g1.jpg', data_base64: await b64('#00c000') } },
    org.key,
  )
  await ts.call<number>('add_client_image', { image: { client_id: second, filename: 'hero.jpg', data_base64: red } }, org.key)
  await ts.call<number>('add_client_image', { image: { client_id: foreignClient, filename: 'x.jpg', data_base64: red } }, other.key)
  t.equal(await ts.call('count_images_out_of_sync', {}, org.key), 3, 'every image of the organization is pending')
  t.equal(await ts.call('get_last_image_push_timestamp_for_client', { client_id: client }, org.key), null)

  const bulk = await ts.call<{ updated: number; results: { outcome: string; image_id: number | null }[] }>(
    'bulk_update_image_types',
    {
      updates: [
        { filename: 'hero.jpg', client_id: client, image_type: 'hero', wp_attachment_id: 812 },
        { filename: 'g1.jpg', client_id: client, image_type: 'gallery' },
        { filename: 'g1.jpg', client_id: client, image_type: 'gallery' },
        { filename: 'nope.jpg', client_id: client, image_type: 'gallery', wp_attachment_id: 1 },
        { filename: 'hero.jpg', client_id: client, image_type: 'banner', wp_attachment_id: 1 },
        { filename: 'x.jpg', client_id: foreignClient, image_type: 'logo', wp_attachment_id: 1 },
      ],
    },
    org.key,
  )
  t.equal(bulk.updated, 2)
  t.same(
    bulk.results.map((r) => [r.outcome, r.image_id]),
    [
      ['updated', hero],
      ['updated', gallery],
      ['unchanged', gallery],
      ['not_found', null],
      ['invalid_image_type', null],
      ['not_found', null],
    ],
  )
  const pushedAt = await ts.call<string>('get_last_image_push_timestamp_for_client', { client_id: client }, org.key)
  t.match(pushedAt, /^\d{4}-\d\d-\d\dT/)
  t.equal(await ts.call('count_images_out_of_sync', {}, org.key), 2)
  t.same(
    (await ts.call<Image[]>('get_images_for_client', { client_id: client, status: 'pushed' }, org.key)).map((i) => i.id),
    [hero],
  )

  // A new version of the pushed hero: changed, version 2, same id.
  t.equal(
    await ts.call<number>(
      'add_client_image',
      { image: { client_id: client, filename: 'hero.jpg', data_base64: await b64('#0000c0'), image_type: 'hero' } },
      org.key,
    ),
    hero,
  )
  const states = await ts.call<{ image_id: number; version: number; status: string; in_sync: boolean; wp_attachment_id: number | null }[]>(
    'get_image_sync_states_for_client',
    { client_id: client },
    org.key,
  )
  t.match(states, [
    { image_id: hero, version: 2, status: 'changed', in_sync: false, wp_attachment_id: 812 },
    { image_id: gallery, version: 1, status: 'pending', in_sync: false, wp_attachment_id: null },
  ])
  t.same(
    (await ts.call<Image[]>('get_images_out_of_sync', {}, org.key)).map((i) => i.id).sort(),
    [hero, gallery, (await ts.call<Image[]>('get_images_for_client', { client_id: second }, org.key))[0]!.id].sort(),
  )
  t.match(await ts.call('get_image_stats', { client_id: client }, org.key), {
    client_id: client,
    total: 2,
    pending: 1,
    pushed: 0,
    changed: 1,
    out_of_sync: 2,
    with_alt_text: 0,
    without_alt_text: 2,
    last_pushed_at: pushedAt,
  })
  t.same(await ts.call('get_image_type_stats', { client_id: client }, org.key), [
    { image_type: 'gallery', total: 1, pushed: 0, out_of_sync: 1, without_alt_text: 1 },
    { image_type: 'hero', total: 1, pushed: 0, out_of_sync: 1, without_alt_text: 1 },
  ])
  t.equal(
    (await ts.call<Image[]>('get_images_for_client', { client_id: client, limit: 1, offset: 1 }, org.key))[0]!.id,
    gallery,
    'paginated',
  )

  // Other organizations: like missing records.
  for (const [method, params] of [
    ['get_images_for_client', { client_id: client }],
    ['get_image_stats', { client_id: client }],
    ['get_image_type_stats', { client_id: client }],
    ['get_image_sync_states_for_client', { client_id: client }],
    ['get_last_image_push_timestamp_for_client', { client_id: client }],
  ] as const) {
    expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method}: another organization's client`)
  }
  expectError(
    t,
    await ts.rpc('add_client_image', { image: { client_id: client, filename: 'y.jpg', data_base64: red } }, other.key),
    404,
    'not_found',
    "add_client_image for another organization's client",
  )
  t.equal(await ts.call('count_images_out_of_sync', {}, other.key), 1, 'the other organization counts only its own')
})

t.test('get_page_images: the images shown on a page; another organization’s page is not found', async (t) => {
  const { ts, org, other, client, second } = await setup(t)
  const page = await ts.call<number>('add_page', { page: { client_id: client, url: 'https://acme-plumbing.example.com/' } }, org.key)
  const red = (await jpegWithExif('#c00000')).toString('base64')
  const id = await ts.call<number>(
    'add_client_image',
    { image: { client_id: client, filename: 'a.jpg', data_base64: red, page_id: page } },
    org.key,
  )
  await ts.call<number>('add_client_image', { image: { client_id: client, filename: 'b.jpg', data_base64: red } }, org.key)
  t.same(
    (await ts.call<Image[]>('get_page_images', { page_id: page }, org.key)).map((i) => i.id),
    [id],
  )
  expectError(t, await ts.rpc('get_page_images', { page_id: page }, other.key), 404, 'not_found', "another organization's page")
  expectError(
    t,
    await ts.rpc('add_client_image', { image: { client_id: second, filename: 'c.jpg', data_base64: red, page_id: page } }, org.key),
    400,
    'validation_failed',
    'a page of another client',
  )
})
