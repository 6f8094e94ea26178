/**
 * The crawl engine against a hostile site: every case ends, bounded, as a result (failed, skipped, truncated),
 * never a throw and never a hang. The timeouts and caps are small so the file runs in seconds.
 */
import t from 'tap'
import { EMPTY_ALLOW_LIST } from '../../domain/webhooks/url-policy.js'
import { startTestSite, type TestSite } from '../support/stand-ins/test-site.js'
import { byUrl, collect, settings } from './monitoring-crawler-support.js'

let site: TestSite
t.beforeEach(async () => {
  site = await startTestSite()
})
t.afterEach(() => site.close())

t.test('a redirect to the link-local metadata address is refused before any connection', async (t) => {
  site.hostile('metadata_redirect')
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings() })
  const [refused] = byUrl(results, `${site.url}/to-metadata`)
  t.match(refused, { kind: 'failed', code: 'address_refused', message: /refused by the URL policy/ })
  const paths = site.paths()
  t.equal(paths.filter((p) => p === '/to-metadata').length, 1, 'the redirect itself was requested once')
  t.notOk(
    site.requests.some((r) => r.path.includes('meta-data') || r.headers.host?.startsWith('169.254')),
    'no request beyond the redirect (the metadata path never reached any server we run)',
  )
})

t.test('a host name that resolves to a refused address: not one request reaches it', async (t) => {
  const port = new URL(site.url).port
  const resolve = async (host: string) => (host === 'intranet.acme.example' ? ['127.0.0.1'] : [])
  const results = await collect({
    startUrl: `http://intranet.acme.example:${port}/`,
    seeds: [`http://intranet.acme.example:${port}/about`],
    settings: settings({ allowList: EMPTY_ALLOW_LIST, resolve }),
  })
  t.same(site.requests, [], 'the site saw nothing: the policy refused the address at connect time')
  t.ok(results.length > 0)
  for (const r of results) t.match(r, { kind: 'failed', code: 'address_refused' }, r.kind === 'sitemap' ? r.url : r.url)
})

t.test('a 100,000-URL sitemap is read only up to the cap, and said to be truncated', async (t) => {
  site.hostile('huge_sitemap')
  const before = process.memoryUsage().heapUsed
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings({ maxPages: 20 }) })
  const [sitemap] = results.filter((r) => r.kind === 'sitemap')
  t.match(sitemap, { kind: 'sitemap', url: `${site.url}/huge-sitemap.xml`, urls: 20, truncated: true, error: null })
  const fetched = results.filter((r) => r.kind === 'page' || r.kind === 'failed' || (r.kind === 'skipped' && r.reason === 'not_html'))
  t.equal(fetched.length, 20, 'twenty pages fetched, no more')
  t.ok(results.filter((r) => r.kind === 'skipped' && r.reason === 'cap').length <= 20, 'cap skips are bounded too')
  t.ok(process.memoryUsage().heapUsed - before < 64 * 1024 * 1024, 'the heap did not take the whole sitemap')
})

t.test('a 50 MB page is cut at the page-size cap', async (t) => {
  site.hostile('huge_page')
  const maxPageBytes = 256 * 1024
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings({ maxPageBytes }) })
  const [huge] = byUrl(results, `${site.url}/huge`)
  t.match(huge, { kind: 'page', state: { status: 200, truncated: true, title: 'Huge' } })
  if (huge?.kind === 'page') t.ok(huge.state.main_text.length <= maxPageBytes, 'the text comes from the first 256 KiB only')
})

t.test('a slow-loris page is cut off at the deadline', async (t) => {
  site.hostile('slow_loris')
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings({ timeoutMs: 1200 }) })
  t.match(byUrl(results, `${site.url}/slow`), [{ kind: 'failed', code: 'timeout' }])
  t.ok(
    byUrl(results, `${site.url}/about`).some((r) => r.kind === 'page'),
    'the rest of the site is crawled all the same',
  )
})

t.test('a robots.txt that disallows everything: nothing is fetched but robots.txt', async (t) => {
  site.hostile('disallow_all')
  const results = await collect({ startUrl: site.url, seeds: [`${site.url}/about`], settings: settings() })
  t.same(site.paths(), ['/robots.txt'])
  t.match(results, [
    { kind: 'sitemap', url: `${site.url}/sitemap_index.xml`, error: 'disallowed by robots.txt' },
    { kind: 'skipped', url: `${site.url}/`, reason: 'robots' },
    { kind: 'skipped', url: `${site.url}/about`, reason: 'robots' },
  ])
  t.equal(results.length, 3)
})

t.test('a robots.txt answering 503 disallows everything for this scan (Google’s rule)', async (t) => {
  site.hostile('robots_error')
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings() })
  t.same(site.paths(), ['/robots.txt'])
  t.same(results, [
    { kind: 'sitemap', url: `${site.url}/sitemap.xml`, urls: 0, truncated: false, error: 'disallowed by robots.txt' },
    { kind: 'skipped', url: `${site.url}/`, inSitemap: false, reason: 'robots' },
  ])
})

t.test('a robots.txt that is missing (404) allows everything, and the default /sitemap.xml is tried', async (t) => {
  site.setPage('/robots.txt', 'not here', { status: 404, contentType: 'text/plain' })
  const results = await collect({ startUrl: site.url, seeds: [], settings: settings() })
  t.match(results[0], { kind: 'sitemap', url: `${site.url}/sitemap.xml`, urls: 0, error: 'HTTP 404' })
  t.ok(
    byUrl(results, `${site.url}/private/secret`).some((r) => r.kind === 'page'),
    'nothing is disallowed',
  )
})

t.test('a redirect loop stops at ten hops; a redirect to another scheme is refused', async (t) => {
  site.setPage('/loop', '', { status: 302, headers: { location: '/loop?again' } })
  site.setPage('/elsewhere', '', { status: 301, headers: { location: 'ftp://files.acme.example/' } })
  const results = await collect({ startUrl: site.url, seeds: [`${site.url}/loop`, `${site.url}/elsewhere`], settings: settings() })
  t.match(byUrl(results, `${site.url}/loop`), [{ kind: 'failed', code: 'too_many_redirects' }])
  t.match(byUrl(results, `${site.url}/elsewhere`), [{ kind: 'failed', code: 'bad_redirect' }])
  t.equal(site.paths().filter((p) => p.startsWith('/loop')).length, 11, 'the first request and ten hops')
})

t.test('an unreachable site: every URL fails, coded, and the crawl ends', async (t) => {
  const port = new URL(site.url).port
  await site.close()
  site = await startTestSite()
  const results = await collect({ startUrl: `http://127.0.0.1:${port}/`, seeds: [], settings: settings() })
  t.match(results, [{ kind: 'failed', url: `http://127.0.0.1:${port}/`, code: 'connection_failed', message: /robots\.txt/ }])
})
