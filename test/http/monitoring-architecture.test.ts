/**
 * get_site_architecture through HTTP: pages recorded as a crawl records them (recordCrawledPages, with their
 * page states' internal links), then a completed crawl's pages with sitemap membership (the scan commands);
 * depths, inlinks, orphans, deep pages, a redirect, the tree; a page's links replaced by its next snapshot;
 * another organization's client and a missing one answer 404 alike.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { queueSiteScan, recordScanPages, startSiteScan, completeSiteScan } from '../../commands/monitoring/scans.js'
import { recordCrawledPages } from '../../commands/monitoring/snapshots.js'
import type { PageState } from '../../domain/monitoring/page-state.js'
import type { ScanPageResult } from '../../domain/monitoring/scans/events.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing'), other.key)
const S = 'https://acme-plumbing.example.com'
const ctx = systemContext('architecture-test')

function state(path: string, links: string[], extra: Partial<PageState> = {}): PageState {
  const url = `${S}${path}`
  const internal = links.map((l) => `${S}${l}`)
  const body = { url, internal, extra }
  return {
    url,
    final_url: url,
    status: 200,
    redirects: [],
    content_type: 'text/html',
    canonical: null,
    robots: null,
    noindex: false,
    title: `Page ${path}`,
    meta_description: null,
    headings: [],
    word_count: 10,
    internal_links: internal,
    outgoing_links: [],
    images: [],
    json_ld_types: [],
    hreflang: [],
    main_text: `The page at ${path}.`,
    truncated: false,
    content_hash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
    ...extra,
  }
}

async function record(scanId: number, states: PageState[]) {
  const out = await recordCrawledPages(ts.system.write, ctx, {
    orgId: org.orgId,
    clientId,
    scanId,
    source: 'crawl',
    pages: states.map((s) => ({ url: s.url, state: s })),
  })
  await readModelsAt(ts, out.position)
  return new Map(out.results.map((r) => [r.url.slice(S.length), r.pageId]))
}

interface Architecture {
  basis: string
  scan_id: number | null
  home_url: string
  summary: Record<string, number | null>
  pages: { url: string; page_id: number | null; depth: number | null; inlinks: number; inlink_sources: string[]; in_sitemap: boolean }[]
  orphan_pages: { url: string }[]
  deep_pages: { url: string; depth: number }[]
  tree: { path: string; parent: string | null; level: number; page_id: number | null; pages: number }[]
}
const architecture = () => ts.call<Architecture>('get_site_architecture', { client_id: clientId }, org.key)
const paths = (list: { url: string }[]) => list.map((p) => p.url.slice(S.length))
const byPath = (arch: Architecture, path: string) => arch.pages.find((p) => p.url === `${S}${path}`)

const site = [
  state('/', ['/services', '/about', '/old-services']),
  state('/services', ['/', '/services/drains', '/services/pipes']),
  state('/services/drains', ['/services', '/a']),
  state('/services/pipes', []),
  state('/about', ['/']),
  state('/a', ['/a/b']),
  state('/a/b', ['/a/b/c']),
  state('/a/b/c', []),
  state('/orphan', ['/']),
]
let pageIds = new Map<string, number>()

t.test('before any crawl: nothing to map', async (t) => {
  const arch = await architecture()
  t.match(arch, { basis: 'none', scan_id: null, summary: { pages: 0, reachable: 0 }, pages: [], tree: [{ path: '/', pages: 0 }] })
})

t.test('crawled snapshots alone: the graph of their links, no sitemap known yet', async (t) => {
  pageIds = await record(1, site)
  const arch = await architecture()
  t.equal(arch.basis, 'snapshots')
  t.equal(arch.home_url, `${S}/`)
  t.same(
    arch.pages.map((p) => [p.url.slice(S.length), p.depth]),
    [
      ['/', 0],
      ['/about', 1],
      ['/services', 1],
      ['/services/drains', 2],
      ['/services/pipes', 2],
      ['/a', 3],
      ['/a/b', 4],
      ['/a/b/c', 5],
      ['/orphan', null],
    ],
  )
  t.match(byPath(arch, '/services'), { page_id: pageIds.get('/services'), inlinks: 2, inlink_sources: [`${S}/`, `${S}/services/drains`] })
  t.same(paths(arch.deep_pages), ['/a/b', '/a/b/c'])
  t.same(arch.orphan_pages, [], 'no sitemap, so no orphan')
  t.equal(arch.summary.unreachable, 1)
})

t.test('a completed crawl: sitemap membership, orphans, a redirect standing for its target, the tree', async (t) => {
  const queued = await queueSiteScan(ts.system.write, ctx, { callerOrgId: org.orgId, clientId, scanType: 'crawl', trigger: 'manual' })
  const scan = { scanId: queued!.scanId, clientId, orgId: org.orgId }
  const started = await startSiteScan(ts.system.write, ctx, scan, { leaseMs: 60_000, worker: 'test', startUrl: `${S}/` })
  const attempt = started.state.attempt
  const redirect = state('/old-services', [], { final_url: `${S}/services`, redirects: [{ url: `${S}/old-services`, status: 301 }] })
  const redirectIds = await record(scan.scanId, [redirect])
  const result = (path: string, in_sitemap: boolean, page_id: number | null = pageIds.get(path) ?? null): ScanPageResult => ({
    url: `${S}${path}`,
    page_id,
    status: 200,
    in_sitemap,
    depth: null,
    outcome: 'unchanged',
    code: null,
  })
  await recordScanPages(ts.system.write, ctx, scan, {
    attempt,
    leaseMs: 60_000,
    pages: [
      ...site.map((s) => result(s.url.slice(S.length), s.url.endsWith('/orphan') || s.url.endsWith('/pipes'))),
      result('/old-services', true, redirectIds.get('/old-services')!),
      { ...result('/private', true, null), status: null, outcome: 'skipped', code: 'robots' },
    ],
  })
  const position = await completeSiteScan(ts.system.write, ctx, scan, attempt)
  await readModelsAt(ts, position)

  const arch = await architecture()
  t.equal(arch.basis, 'crawl')
  t.equal(arch.scan_id, scan.scanId)
  t.same(paths(arch.orphan_pages), ['/orphan'], 'in the sitemap and linked from nowhere; /services/pipes is in the sitemap but linked')
  t.notOk(byPath(arch, '/private'), 'a URL the crawl skipped (robots) is not in the graph')
  t.notOk(byPath(arch, '/old-services'), 'the redirecting URL stands for its target')
  t.match(
    byPath(arch, '/services'),
    { depth: 1, inlinks: 2, in_sitemap: true },
    'the sitemap listed /old-services, which ends at /services',
  )
  t.equal(arch.summary.pages, 9)
  const services = arch.tree.find((r) => r.path === '/services')!
  t.match(services, { parent: '/', level: 1, page_id: pageIds.get('/services'), pages: 3 })
  t.same(
    arch.tree.filter((r) => r.parent === '/services').map((r) => r.path),
    ['/services/drains', '/services/pipes'],
  )
})

t.test("a page's next snapshot replaces its links", async (t) => {
  await record(2, [state('/services', ['/', '/services/pipes'])])
  const arch = await architecture()
  t.equal(byPath(arch, '/services/drains')!.depth, null, 'no page links to /services/drains any more')
  t.equal(byPath(arch, '/a')!.depth, null, 'nor, through it, to /a')
  t.same(paths(arch.deep_pages), [])
})

t.test("another organization's client and a missing one answer alike", async (t) => {
  expectError(t, await ts.rpc('get_site_architecture', { client_id: foreignClient }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_site_architecture', { client_id: 999_999 }, org.key), 404, 'not_found')
})
