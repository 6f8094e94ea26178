/**
 * The crawl engine (processors/monitoring/scans/crawler/crawl.ts) against the test site on 127.0.0.1: what a
 * crawl finds (sitemaps, links, depth, orphans), what it records (redirect hops, 404s, noindex, encodings),
 * what it leaves alone (robots.txt), conditional requests, the page cap, a resumed crawl, and stopping.
 * The hostile cases are in monitoring-crawler-hostile.test.ts.
 */
import t from 'tap'
import { PageState } from '../../domain/monitoring/page-state.js'
import { crawl, type CrawlResult } from '../../processors/monitoring/scans/crawler/crawl.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { startTestSite, type TestSite } from '../support/stand-ins/test-site.js'
import { byUrl, collect, settings } from './monitoring-crawler-support.js'

const page = (results: CrawlResult[], url: string) => {
  const found = byUrl(results, url)
  if (found.length !== 1 || found[0]!.kind !== 'page') throw new Error(`expected one page result for ${url}, got ${JSON.stringify(found)}`)
  return found[0] as Extract<CrawlResult, { kind: 'page' }>
}

let site: TestSite
t.beforeEach(async () => {
  site = await startTestSite()
})
t.afterEach(() => site.close())

t.test('a crawl finds pages from the sitemaps and the links, and records what each says', async (t) => {
  const results = await collect({ startUrl: `${site.url}/`, seeds: [], settings: settings() })
  const at = (path: string) => `${site.url}${path}`

  const sitemaps = results.filter((r) => r.kind === 'sitemap')
  t.same(
    sitemaps.map((s) => [s.url, s.urls, s.truncated, s.error]),
    [
      [at('/sitemap_index.xml'), 0, false, null],
      [at('/sitemap-pages.xml'), 4, false, null],
      [at('/sitemap-more.xml'), 4, false, null],
    ],
    'the index named in robots.txt and its two children; the other site’s URL not kept',
  )

  const home = page(results, at('/'))
  t.equal(home.depth, 0)
  t.ok(home.inSitemap)
  t.equal(page(results, at('/about')).depth, 1)
  t.same(
    ['/deep/1', '/deep/2', '/deep/3', '/deep/4'].map((p) => page(results, at(p)).depth),
    [1, 2, 3, 4],
    'the archive page is four clicks deep',
  )
  const orphan = page(results, at('/orphan'))
  t.equal(orphan.depth, -1, 'the orphan is reached only through the sitemap')
  t.ok(orphan.inSitemap)
  t.notOk(page(results, at('/deep/1')).inSitemap)

  t.equal(page(results, at('/missing')).state.status, 404, 'a 404 is a page result')
  const moved = page(results, at('/old-page'))
  t.same(moved.state.redirects, [
    { url: at('/old-page'), status: 301 },
    { url: at('/moved-once'), status: 302 },
  ])
  t.equal(moved.state.final_url, at('/new-page'))
  t.equal(moved.state.status, 200)
  t.equal(moved.state.title, 'The new catalogue')
  t.equal(page(results, at('/new-page')).depth, 1, 'the redirect’s target is a page of its own')

  t.ok(page(results, at('/noindex')).state.noindex)
  t.notOk(home.state.noindex)
  t.match(page(results, at('/bad-utf8')).state.title, /Broken \uFFFD+ bytes/, 'invalid UTF-8 becomes replacement characters')
  t.equal(page(results, at('/latin1')).state.title, 'Café crème', 'the meta charset is honoured')
  t.same(byUrl(results, at('/private/secret')), [{ kind: 'skipped', url: at('/private/secret'), inSitemap: true, reason: 'robots' }])
  t.same(byUrl(results, at('/logo.png')), [{ kind: 'skipped', url: at('/logo.png'), inSitemap: false, reason: 'not_html' }])
  t.notOk(
    results.some((r) => r.kind !== 'sitemap' && !r.url.startsWith(site.url)),
    'nothing off the site is visited (example.org is only a link)',
  )

  for (const r of results) if (r.kind === 'page') PageState.parse(r.state)
  t.equal(home.validators.etag?.startsWith('"'), true, 'the ETag is handed back for the next conditional request')

  const paths = site.paths()
  t.notOk(paths.includes('/private/secret'), 'a disallowed page is never requested')
  t.equal(new Set(paths).size, paths.length, 'no URL is requested twice')
  t.equal(paths[0], '/robots.txt', 'robots.txt comes first')
  t.equal(site.requests[1]!.headers['user-agent'], DEFAULT_MONITORING_SETTINGS.userAgent)
})

t.test('conditional requests, a changed page and a removed seed on the next crawl', async (t) => {
  const first = await collect({ startUrl: site.url, seeds: [], settings: settings() })
  const validators = new Map(
    first.filter((r) => r.kind === 'page').map((r) => [r.url, { ...r.validators, internalLinks: r.state.internal_links }]),
  )
  const before = page(first, `${site.url}/changing`).state.content_hash
  site.setPage('/changing', '<html><head><title>What is new</title></head><body><h1>What is new</h1><p>Version two.</p></body></html>')
  site.setPage('/', '<html><head><title>Home</title></head><body><a href="/about">About</a></body></html>')
  const second = await collect({
    startUrl: site.url,
    seeds: [`${site.url}/changing`, `${site.url}/gone#section`],
    settings: settings(),
    validators,
  })

  t.same(byUrl(second, `${site.url}/about`), [{ kind: 'not_modified', url: `${site.url}/about`, inSitemap: true, depth: 1 }])
  const changed = page(second, `${site.url}/changing`)
  t.not(changed.state.content_hash, before, 'the changed page hashes differently')
  t.equal(changed.depth, -1, 'no longer linked: reached as a seed (it is in the sitemap too)')
  const gone = page(second, `${site.url}/gone`)
  t.equal(gone.state.status, 404, 'a seed nothing links to is fetched and seen gone')
  const conditional = site.requests.filter((r) => r.headers['if-none-match'] !== undefined)
  t.ok(conditional.length > 0, 'the second crawl sent If-None-Match')
  t.ok(
    byUrl(second, `${site.url}/products`).length === 1,
    'links of a page that answered 304 are still followed (from the last snapshot’s links)',
  )
})

t.test('the page cap: at most maxPages fetches, the rest reported skipped for the cap', async (t) => {
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings({ maxPages: 3 }) })
  const fetched = results.filter((r) => r.kind === 'page' || r.kind === 'not_modified' || r.kind === 'failed')
  t.equal(fetched.length, 3)
  t.equal(page(results, `${site.url}/`).depth, 0, 'the start URL comes first')
  const capped = results.filter((r) => r.kind === 'skipped' && r.reason === 'cap')
  t.ok(capped.length > 0)
  const sitemapsKept = results.filter((r) => r.kind === 'sitemap').reduce((n, r) => n + (r.kind === 'sitemap' ? r.urls : 0), 0)
  t.ok(sitemapsKept <= 3, 'no more sitemap URLs kept than the cap')
  const pageRequests = site.paths().filter((p) => !p.includes('robots') && !p.includes('sitemap'))
  t.equal(pageRequests.length, 3, 'three page requests reached the site')
})

t.test('a resumed crawl does not fetch what it already recorded, and still follows its links', async (t) => {
  const first = await collect({ startUrl: site.url, seeds: [], settings: settings() })
  const home = page(first, `${site.url}/`)
  site.requests.length = 0
  const done = new Map([[`${site.url}/`, home.state]])
  const resumed = await collect({ startUrl: site.url, seeds: [], settings: settings(), done })
  t.same(byUrl(resumed, `${site.url}/`), [], 'the recorded page is not yielded again')
  t.notOk(site.paths().includes('/'), 'nor fetched')
  t.equal(page(resumed, `${site.url}/deep/1`).depth, 1, 'its links lead on, at their depth')
})

t.test('stopping a crawl: aborting the signal ends it without a throw, and so does breaking out', async (t) => {
  site.setDelay(100)
  const controller = new AbortController()
  const results: CrawlResult[] = []
  for await (const result of crawl({ startUrl: site.url, seeds: [], settings: settings(), signal: controller.signal })) {
    results.push(result)
    if (results.filter((r) => r.kind === 'page').length === 2) controller.abort()
  }
  t.equal(results.filter((r) => r.kind === 'page').length, 2, 'nothing yielded after the abort')
  let seen = 0
  for await (const result of crawl({ startUrl: site.url, seeds: [], settings: settings() }))
    if (result.kind === 'page' && ++seen === 1) break
  t.equal(seen, 1)
})

t.test('a start URL that is not http(s) is the one thing that throws', async (t) => {
  await t.rejects(collect({ startUrl: 'ftp://acme.example/', seeds: [], settings: settings() }), /not an http\(s\) URL/)
})
