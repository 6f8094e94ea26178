/**
 * A real website on 127.0.0.1 for the site monitor's tests and the `crawl` bench: robots.txt, a sitemap
 * index, HTML pages that link to each other, redirects, a 404, a noindex page, a page a test rewrites between
 * two scans, a JavaScript-only page, invalid UTF-8, an orphan, a page four clicks deep. Every page answers
 * with an ETag and honours If-None-Match (304), as most servers do.
 *
 * Hostile modes a test switches on (`hostile(mode)`), each linked from the home page (or listed in
 * robots.txt) only while on, so the ordinary crawl stays ordinary:
 * - `metadata_redirect`: /to-metadata redirects to http://169.254.169.254/latest/meta-data/ (link-local:
 *   the crawl's address policy must refuse it before connecting);
 * - `huge_sitemap`: robots.txt names /huge-sitemap.xml, 100,000 URLs streamed (never held by the server);
 * - `huge_page`: /huge, 50 MB of HTML streamed in chunks;
 * - `slow_loris`: /slow sends its headers and then one byte a second, forever;
 * - `disallow_all`: robots.txt disallows everything;
 * - `robots_error`: robots.txt answers 503.
 *
 * `startTestSite({ tree: n })` serves a generated site instead: n article pages (`/` and `/p/1` … `/p/{n-1}`)
 * linked as a tree (each page links its parent and its children, fan-out 10), all listed in /sitemap.xml:
 * the `crawl` bench's site (its generator is ops/bench/scenarios/support/tree-site.ts, which the bench serves
 * from a worker thread). Pages are generated per request (the server holds none of them).
 *
 * Every request is logged (`requests`), so a test can assert what was, and was not, fetched.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { treeIndex, treePage, treeSitemap } from '../../../ops/bench/scenarios/support/tree-site.js'

export type HostileMode = 'metadata_redirect' | 'huge_sitemap' | 'huge_page' | 'slow_loris' | 'disallow_all' | 'robots_error'

export interface TestSiteOptions {
  /** Serve a generated tree of this many pages instead of the fixture site. */
  readonly tree?: number
  /** Wait this long before answering each request (a slow site: lets a test interrupt a scan mid-way). */
  readonly delayMs?: number
  /** Keep the request log (default true; the bench turns it off). */
  readonly log?: boolean
}

export interface TestSiteRequest {
  readonly method: string
  readonly path: string
  readonly headers: http.IncomingHttpHeaders
}

interface Page {
  readonly status: number
  readonly contentType: string
  readonly body: Buffer
  readonly headers?: Readonly<Record<string, string>>
}

export interface TestSite {
  /** The site's base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string
  /** Every request received, in order. */
  readonly requests: TestSiteRequest[]
  /** Sets (or replaces) the HTML served at a path, 200 text/html; charset=utf-8 unless told otherwise. */
  setPage(path: string, html: string | Buffer, options?: { status?: number; contentType?: string; headers?: Record<string, string> }): void
  /** The path answers 404 from now on. */
  removePage(path: string): void
  /** Switches a hostile mode on (or off). */
  hostile(mode: HostileMode, on?: boolean): void
  /** Slows every answer down by this many milliseconds (0: none). */
  setDelay(ms: number): void
  /** The paths requested so far (query included), in order. */
  paths(): string[]
  close(): Promise<void>
}

/** The fixture site's pages, relative to the base URL (what a test can expect a crawl to find). */
export const FIXTURE_PATHS = {
  home: '/',
  about: '/about',
  products: '/products',
  blogPost: '/blog/first-post',
  changing: '/changing',
  noindex: '/noindex',
  missing: '/missing',
  redirectStart: '/old-page',
  redirectMiddle: '/moved-once',
  redirectEnd: '/new-page',
  jsOnly: '/app',
  badUtf8: '/bad-utf8',
  latin1: '/latin1',
  orphan: '/orphan',
  disallowed: '/private/secret',
  deep: ['/deep/1', '/deep/2', '/deep/3', '/deep/4'],
  image: '/logo.png',
} as const

const html = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`

const paragraph = (topic: string) =>
  `<p>Our ${topic} team has spent years helping small shops grow. We write about what works, what does not, and why the details matter more than the slogans.</p>`

function fixturePages(): Map<string, Page> {
  const pages = new Map<string, Page>()
  const put = (path: string, body: string, status = 200) =>
    pages.set(path, { status, contentType: 'text/html; charset=utf-8', body: Buffer.from(body) })
  put(
    '/',
    html(
      'Acme Garden Supplies',
      `<header><nav><a href="/about">About</a> <a href="/products">Products</a> <a href="/blog/first-post#top">Blog</a></nav></header>
<main><h1>Acme Garden Supplies</h1>${paragraph('garden')}
<ul><li><a href="/changing">What is new</a></li><li><a href="/noindex">Staff notes</a></li><li><a href="/missing">An old link</a></li>
<li><a href="/old-page">Our old catalogue</a></li><li><a href="/app">The planner app</a></li><li><a href="/bad-utf8">Mojibake</a></li>
<li><a href="/latin1">Café</a></li><li><a href="/private/secret">Private</a></li><li><a href="/deep/1">The archive</a></li>
<li><a href="/logo.png">Our logo</a></li><li><a href="mailto:hello@acme.example">Write to us</a></li><li><a href="https://example.org/partner">A partner</a></li></ul>
__HOSTILE_LINKS__</main>`,
      '<meta name="description" content="Tools, seeds and advice for small gardens."><link rel="canonical" href="/">',
    ),
  )
  put(
    '/about',
    html(
      'About Acme',
      `<main><h1>About us</h1><h2>Our story</h2>${paragraph('founding')}<h2>Our people</h2>${paragraph('people')}
<img src="/img/team.jpg" alt="The team in the greenhouse"><img src="/img/spacer.gif" alt=""><img src="/img/shed.jpg">
<a href="/">Home</a> <a href="/products">Products</a></main>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Acme"}</script>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":["BreadcrumbList","Thing"]}]}</script>
<script type="application/ld+json">{ this is not json </script>`,
      `<meta name="description" content="Who we are."><link rel="canonical" href="https://acme.example/about">
<link rel="alternate" hreflang="de" href="/de/about"><link rel="alternate" hreflang="x-default" href="/about">`,
    ),
  )
  put('/products', html('Products', `<main><h1>Products</h1>${paragraph('product')}<a href="/">Home</a> <a href="/about">About</a></main>`))
  put('/blog/first-post', html('Our first post', `<article><h1>Our first post</h1>${paragraph('blog')}${paragraph('writing')}</article>`))
  put('/changing', html('What is new', `<main><h1>What is new</h1><p>Version one of this page.</p></main>`))
  put(
    '/noindex',
    html('Staff notes', `<main><h1>Staff notes</h1>${paragraph('staff')}</main>`, '<meta name="robots" content="noindex, follow">'),
  )
  put(
    '/app',
    html(
      'Planner',
      `<div id="app"></div><script>document.getElementById('app').innerHTML = '<h1>Garden planner</h1><p>Plan your beds, rotate your crops and never forget to water again.</p>'</script>`,
    ),
  )
  pages.set('/bad-utf8', {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: Buffer.concat([
      Buffer.from('<!doctype html><html><head><title>Broken '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(' bytes</title></head><body><h1>Caf'),
      Buffer.from([0xe9]),
      Buffer.from(' au lait</h1><p>Some words survive the bad bytes.</p></body></html>'),
    ]),
  })
  pages.set('/latin1', {
    status: 200,
    contentType: 'text/html',
    body: Buffer.from(
      '<!doctype html><html><head><meta charset="iso-8859-1"><title>Caf\u00e9 cr\u00e8me</title></head><body><h1>Caf\u00e9</h1><p>D\u00e9j\u00e0 vu.</p></body></html>',
      'latin1',
    ),
  })
  put('/orphan', html('Forgotten page', `<main><h1>Forgotten page</h1>${paragraph('orphan')}</main>`))
  put('/private/secret', html('Secret', '<h1>Secret</h1>'))
  for (let i = 1; i <= 4; i++) {
    const next = i < 4 ? `<a href="/deep/${i + 1}">Older</a>` : ''
    put(`/deep/${i}`, html(`Archive ${i}`, `<main><h1>Archive page ${i}</h1>${paragraph('archive')}${next}</main>`))
  }
  pages.set('/new-page', {
    status: 200,
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(html('The new catalogue', '<h1>The new catalogue</h1><p>Everything moved here.</p>')),
  })
  pages.set('/logo.png', { status: 200, contentType: 'image/png', body: Buffer.from('89504e470d0a1a0a', 'hex') })
  return pages
}

const FIXTURE_REDIRECTS: Record<string, [number, string]> = {
  '/old-page': [301, '/moved-once'],
  '/moved-once': [302, '/new-page'],
}

const urlset = (base: string, paths: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
    .map((p) => `<url><loc>${base}${p}</loc></url>`)
    .join('')}</urlset>`

export async function startTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const tree = options.tree ?? null
  const pages = tree === null ? fixturePages() : new Map<string, Page>()
  const hostile = new Set<HostileMode>()
  const requests: TestSiteRequest[] = []
  const timers = new Set<NodeJS.Timeout>()
  let delay = options.delayMs ?? 0
  let base = ''

  const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`
  const send = (req: http.IncomingMessage, res: http.ServerResponse, page: Page): void => {
    const etag = etagOf(page.body)
    if (page.status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag })
      return void res.end()
    }
    res.writeHead(page.status, { 'content-type': page.contentType, 'content-length': page.body.length, etag, ...page.headers })
    res.end(page.body)
  }
  const text = (res: http.ServerResponse, status: number, contentType: string, body: string): void => {
    res.writeHead(status, { 'content-type': contentType })
    res.end(body)
  }

  const robots = () => {
    if (tree !== null) return `User-agent: *\nDisallow:\nSitemap: ${base}/sitemap.xml\n`
    if (hostile.has('disallow_all')) return `User-agent: *\nDisallow: /\nSitemap: ${base}/sitemap_index.xml\n`
    const sitemap = hostile.has('huge_sitemap') ? '/huge-sitemap.xml' : '/sitemap_index.xml'
    return `User-agent: *\nDisallow: /private/\n\nSitemap: ${base}${sitemap}\n`
  }

  // Streams a body in chunks as the socket drains, so the server never holds it whole.
  const stream = (res: http.ServerResponse, chunks: () => string | null): void => {
    const write = () => {
      for (;;) {
        const chunk = chunks()
        if (chunk === null) return void res.end()
        if (!res.write(chunk)) return void res.once('drain', write)
      }
    }
    res.on('close', () => res.removeAllListeners('drain'))
    write()
  }

  const answer = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const path = (req.url ?? '/').replace(/\?.*$/, '')
    // A robots.txt set with setPage replaces the generated one.
    if (path === '/robots.txt' && !pages.has(path)) {
      if (hostile.has('robots_error')) return text(res, 503, 'text/plain', 'Service unavailable')
      return text(res, 200, 'text/plain', robots())
    }
    if (tree !== null) {
      if (path === '/sitemap.xml') return text(res, 200, 'application/xml', treeSitemap(base, tree))
      const index = treeIndex(path, tree)
      if (index < 0) return text(res, 404, 'text/html', html('Not found', '<h1>Not found</h1>'))
      return send(req, res, { status: 200, contentType: 'text/html; charset=utf-8', body: Buffer.from(treePage(index, tree)) })
    }
    if (path === '/sitemap_index.xml')
      return text(
        res,
        200,
        'application/xml',
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-pages.xml</loc></sitemap><sitemap><loc>${base}/sitemap-more.xml</loc></sitemap></sitemapindex>`,
      )
    if (path === '/sitemap-pages.xml')
      return text(res, 200, 'application/xml', urlset(base, ['/', '/about', '/products', '/blog/first-post']))
    if (path === '/sitemap-more.xml')
      return text(
        res,
        200,
        'application/xml',
        urlset(base, ['/orphan', '/changing', '/app', 'https://example.org/not-ours', '/private/secret']),
      )
    if (path === '/huge-sitemap.xml' && hostile.has('huge_sitemap')) {
      // Chunk 0 is the opening, chunks 1 to 200 carry 500 URLs each, chunk 201 the closing tag.
      let chunkIndex = 0
      res.writeHead(200, { 'content-type': 'application/xml' })
      return stream(res, () => {
        const at = chunkIndex++
        if (at === 0) return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        if (at === 201) return '</urlset>'
        if (at > 201) return null
        let chunk = ''
        for (let n = (at - 1) * 500 + 1; n <= at * 500; n++) chunk += `<url><loc>${base}/generated/${n}</loc></url>`
        return chunk
      })
    }
    if (path === '/to-metadata' && hostile.has('metadata_redirect')) {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' })
      return void res.end()
    }
    if (path === '/huge' && hostile.has('huge_page')) {
      const total = 50 * 1024 * 1024
      const chunk = `<p>${'filler text '.repeat(5000)}</p>`
      let sent = 0
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': total })
      return stream(res, () => {
        if (sent >= total) return null
        const part = sent === 0 ? `<html><head><title>Huge</title></head><body>${chunk}` : chunk
        const cut = part.slice(0, total - sent)
        sent += cut.length
        return cut
      })
    }
    if (path === '/slow' && hostile.has('slow_loris')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.write('<')
      const timer = setInterval(() => res.write('p'), 1000)
      timers.add(timer)
      res.on('close', () => {
        clearInterval(timer)
        timers.delete(timer)
      })
      return
    }
    const redirect = FIXTURE_REDIRECTS[path]
    if (redirect) {
      res.writeHead(redirect[0], { location: redirect[1] })
      return void res.end()
    }
    const page = pages.get(path)
    if (!page) return text(res, 404, 'text/html; charset=utf-8', html('Not found', '<h1>Page not found</h1>'))
    if (path === '/') {
      const links = [
        hostile.has('metadata_redirect') ? '<a href="/to-metadata">Metadata</a>' : '',
        hostile.has('huge_page') ? '<a href="/huge">Huge</a>' : '',
        hostile.has('slow_loris') ? '<a href="/slow">Slow</a>' : '',
      ].join(' ')
      return send(req, res, { ...page, body: Buffer.from(page.body.toString().replace('__HOSTILE_LINKS__', links)) })
    }
    send(req, res, page)
  }

  const server = http.createServer((req, res) => {
    if (options.log !== false) requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers })
    if (delay <= 0) return answer(req, res)
    const timer = setTimeout(() => {
      timers.delete(timer)
      answer(req, res)
    }, delay)
    timers.add(timer)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: base,
    requests,
    setPage(path, body, pageOptions = {}) {
      pages.set(path, {
        status: pageOptions.status ?? 200,
        contentType: pageOptions.contentType ?? 'text/html; charset=utf-8',
        body: Buffer.isBuffer(body) ? body : Buffer.from(body),
        ...(pageOptions.headers ? { headers: pageOptions.headers } : {}),
      })
    },
    removePage(path) {
      pages.delete(path)
    },
    hostile(mode, on = true) {
      if (on) hostile.add(mode)
      else hostile.delete(mode)
    },
    setDelay(ms) {
      delay = ms
    },
    paths: () => requests.map((r) => r.path),
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
