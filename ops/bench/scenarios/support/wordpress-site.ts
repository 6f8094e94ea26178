import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The `publishing` bench's WordPress site: `pages` published pages (ids 1 … pages) on 127.0.0.1, speaking the
 * REST API's wire format for exactly what the site publisher and the connection check use: the index
 * (/wp-json/), users/me, the active theme, the plugins, the feed's <generator>, and a page read and written by
 * id with context=edit, behind application-password Basic auth, with WordPress's error JSON
 * `{code, message, data: {status}}`. A page's `modified_gmt` moves forward on every write, by a second at least
 * (WordPress stores whole seconds), so the publisher's version checks see each write. The test suite's
 * stand-in (test/support/stand-ins/wordpress.ts) speaks the same format for far more; ops/ does not import
 * tests, so this is the part the bench needs.
 */

/** The application password's user and the password as WordPress shows it (spaces are dropped when checked). */
export const SITE_USERNAME = 'editor'
export const SITE_APPLICATION_PASSWORD = 'abcd EFGH 1234 ijkl MNOP 5678'
/** Every page's version before the bench writes to it: what an edit staged from the live page records. */
export const SEED_MODIFIED_GMT = '2026-01-15T09:00:00'

/** A page's post content as the block editor stores it: about 3 KB of headings and paragraphs. */
export function pageContent(id: number): string {
  const paragraph = (topic: string) =>
    `<!-- wp:paragraph -->\n<p>Our ${topic} crew has served the neighbourhood for years. We explain what we do, what it costs and how long it takes, so there are no surprises on the day, and we clean up before we leave.</p>\n<!-- /wp:paragraph -->`
  const sections = ['Drain cleaning', 'Water heaters', 'Leak detection', 'Emergency call-outs']
    .map(
      (name, s) =>
        `<!-- wp:heading -->\n<h2 class="wp-block-heading">${name} for page ${id}</h2>\n<!-- /wp:heading -->\n${paragraph(`section ${s + 1}`)}\n${paragraph(`page ${id}`)}`,
    )
    .join('\n\n')
  return `<!-- wp:heading {"level":1} -->\n<h1 class="wp-block-heading">Plumbing services, page ${id}</h1>\n<!-- /wp:heading -->\n\n${sections}`
}

/** The edit the bench stages for a page: one phrase of its content changed, as a prompted edit makes it. */
export function proposedContent(id: number): string {
  return pageContent(id).replace('Plumbing services', 'Same-day plumbing services')
}

/** What the site reports after the run, for the bench to check that every write took and was undone. */
export interface SiteTally {
  readonly requests: number
  readonly writes: number
  /** Pages whose content is not what the site started with. */
  readonly changed: number
}

interface StoredPage {
  readonly id: number
  readonly slug: string
  readonly title: string
  content: string
  modified_gmt: string
}

/** WordPress's date format in the REST API: no zone, no fraction. */
const wpDate = (ms: number) => new Date(ms).toISOString().slice(0, 19)

export async function startWordPressSite(pages: number): Promise<{ url: string; tally: () => SiteTally; close(): Promise<SiteTally> }> {
  let url = ''
  let requests = 0
  let writes = 0
  const site = new Map<number, StoredPage>()
  for (let id = 1; id <= pages; id++)
    site.set(id, { id, slug: `page-${id}`, title: `Page ${id}`, content: pageContent(id), modified_gmt: SEED_MODIFIED_GMT })
  const token = Buffer.from(`${SITE_USERNAME}:${SITE_APPLICATION_PASSWORD.replace(/\s+/g, '')}`).toString('base64')

  const serialize = (page: StoredPage) => ({
    id: page.id,
    date: SEED_MODIFIED_GMT,
    date_gmt: SEED_MODIFIED_GMT,
    guid: { rendered: `${url}/?page_id=${page.id}`, raw: `${url}/?page_id=${page.id}` },
    modified: page.modified_gmt,
    modified_gmt: page.modified_gmt,
    slug: page.slug,
    status: 'publish',
    type: 'page',
    link: `${url}/${page.slug}/`,
    title: { raw: page.title, rendered: page.title },
    content: { raw: page.content, rendered: page.content.replace(/<!-- \/?wp:[^>]*-->\n?/g, ''), protected: false, block_version: 1 },
    excerpt: { raw: '', rendered: '', protected: false },
    author: 1,
    featured_media: 0,
    parent: 0,
    menu_order: 0,
    comment_status: 'closed',
    ping_status: 'closed',
    template: '',
    meta: [],
  })

  const index = () => ({
    name: 'Summit Plumbing',
    description: 'Drains, water heaters and leaks, same day',
    url,
    home: url,
    gmt_offset: 0,
    timezone_string: '',
    namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1', 'wp-block-editor/v1'],
    authentication: { 'application-passwords': { endpoints: { authorization: `${url}/wp-admin/authorize-application.php` } } },
    routes: {},
  })

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
      link: `<${url}/wp-json/>; rel="https://api.w.org/"`,
    })
    res.end(text)
  }
  const fail = (res: http.ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { code, message, data: { status } })

  const answer = (req: http.IncomingMessage, res: http.ServerResponse, raw: string) => {
    const address = new URL(req.url ?? '/', 'http://site')
    if (address.pathname === '/' && address.searchParams.get('feed') === 'rss2') {
      const feed = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Summit Plumbing</title><link>${url}</link><generator>https://wordpress.org/?v=6.6.2</generator></channel></rss>`
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=UTF-8', 'content-length': String(Buffer.byteLength(feed)) })
      return void res.end(feed)
    }
    if (!address.pathname.startsWith('/wp-json'))
      return fail(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.')
    const rest = address.pathname.slice('/wp-json'.length).replace(/\/$/, '') || '/'
    if (rest === '/' && req.method === 'GET') return send(res, 200, index())
    if (req.headers.authorization !== `Basic ${token}`)
      return fail(res, 401, 'incorrect_password', 'The provided password is an invalid application password.')
    if (rest === '/wp/v2/users/me' && req.method === 'GET')
      return send(res, 200, { id: 1, name: 'Dana Baker', slug: SITE_USERNAME, username: SITE_USERNAME, roles: ['administrator'] })
    if (rest === '/wp/v2/themes' && req.method === 'GET')
      return send(res, 200, [
        { stylesheet: 'astra', template: 'astra', name: { raw: 'Astra', rendered: 'Astra' }, version: '4.8.3', status: 'active' },
      ])
    if (rest === '/wp/v2/plugins' && req.method === 'GET') return send(res, 200, [])
    const single = /^\/wp\/v2\/pages\/(\d+)$/.exec(rest)
    const page = single ? site.get(Number(single[1])) : undefined
    if (single && !page) return fail(res, 404, 'rest_post_invalid_id', 'Invalid post ID.')
    if (page && req.method === 'GET') return send(res, 200, serialize(page))
    if (page && req.method === 'POST') {
      let body: { content?: unknown }
      try {
        body = JSON.parse(raw) as { content?: unknown }
      } catch {
        return fail(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.')
      }
      if (body.content !== undefined && typeof body.content !== 'string')
        return fail(res, 400, 'rest_invalid_param', 'Invalid parameter(s): content')
      if (typeof body.content === 'string') page.content = body.content
      page.modified_gmt = wpDate(Math.max(Math.floor(Date.now() / 1000) * 1000, Date.parse(`${page.modified_gmt}Z`) + 1000))
      writes++
      return send(res, 200, serialize(page))
    }
    return fail(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.')
  }

  const server = http.createServer((req, res) => {
    requests++
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')))
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const tally = (): SiteTally => ({
    requests,
    writes,
    changed: [...site.values()].filter((page) => page.content !== pageContent(page.id)).length,
  })
  return {
    url,
    tally,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      return tally()
    },
  }
}
