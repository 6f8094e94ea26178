/**
 * A site edit's attribution through the real crawler, end to end over HTTP with the processors running: a
 * crawl of the test site on 127.0.0.1 records its pages and snapshots; a site edit on /products is staged and
 * applied (the built-in publisher records a snapshot only, so the test site is then changed to serve what the
 * edit published, as a real publisher would have done); after the publish cooldown a second crawl sees the new
 * page. get_site_changes attributes the page's changes to the edit (with its edit_id) and reports nothing for
 * the pages that did not change; get_site_architecture follows the links the crawler really found: the link the
 * edit added makes the sitemap-only orphan reachable, the link it dropped takes an inlink away.
 */
import t from 'tap'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { eventually, handClock } from '../http/aeo-runs-helpers.js'
import { expectError, orgWithKey } from '../http/helpers.js'
import { FIXTURE_PATHS, startTestSite } from '../support/stand-ins/test-site.js'
import { startTestSystem, type TestSystem } from '../support/system.js'

const monitoring = {
  ...DEFAULT_MONITORING_SETTINGS,
  allowList: parseAllowList('127.0.0.1')!,
  delayMs: 0,
  hostConcurrency: 4,
  timeoutMs: 3_000,
  pollMs: 100,
  maxPages: 100,
  chromiumPath: '/nonexistent/chromium',
}

type Session = { session_id: number; status: string; progress: Record<string, number>; error: unknown }
type Change = { id: number; page_id: number; url: string; kind: string; attribution: string; edit_id: number | null }
type Architecture = {
  basis: string
  scan_id: number | null
  pages: { url: string; depth: number | null; inlinks: number; inlink_sources: string[]; in_sitemap: boolean }[]
  orphan_pages: { url: string }[]
}

/** Starts a crawl over HTTP and waits for its session to close; the session as get_last_scan_session shows it. */
async function crawlOnce(ts: TestSystem, key: string, clientId: number, what: string): Promise<Session> {
  const started = await ts.call<Session & { created: boolean }>('start_site_scan', { client_id: clientId }, key)
  const done = await eventually(async () => {
    const s = await ts.call<Session | null>('get_last_scan_session', { client_id: clientId, scan_type: 'crawl' }, key)
    return s && s.session_id === started.session_id && (s.status === 'completed' || s.status === 'failed') ? s : undefined
  }, what)
  return done
}

t.test('a site edit published between two real crawls is attributed to the edit; the architecture follows the new links', async (t) => {
  const site = await startTestSite()
  t.teardown(() => site.close())
  const clock = handClock('2026-11-26T08:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, monitoring, runProcessors: true })
  const org = await orgWithKey(ts, 'Acme Agency')
  const clientId = await ts.call<number>('add_client', { client: { name: 'Acme Garden', website_url: `${site.url}/` } }, org.key)
  const at = (path: string) => `${site.url}${path}`

  // 1. The first crawl: every page is a first observation.
  const first = await crawlOnce(ts, org.key, clientId, 'the first crawl')
  t.equal(first.status, 'completed', JSON.stringify(first.error))
  t.ok(first.progress.pages_recorded! >= 8, `pages recorded (${first.progress.pages_recorded})`)
  const pages = await ts.call<{ page_id: number; url: string }[]>('get_pages_for_client', { client_id: clientId }, org.key)
  const pageId = (path: string) => {
    const found = pages.find((p) => p.url.replace(/\/$/, '') === at(path).replace(/\/$/, ''))
    if (!found) throw new Error(`no page for ${path} among ${pages.map((p) => p.url).join(', ')}`)
    return found.page_id
  }
  const productsId = pageId(FIXTURE_PATHS.products)
  for (const path of [FIXTURE_PATHS.home, FIXTURE_PATHS.about, FIXTURE_PATHS.products, FIXTURE_PATHS.orphan]) {
    const snapshots = await ts.call<{ source: string }[]>('get_snapshots_for_page', { page_id: pageId(path) }, org.key)
    t.same(
      snapshots.map((s) => s.source),
      ['crawl'],
      `${path}: one crawled snapshot`,
    )
  }
  const firstChanges = await ts.call<Change[]>('get_site_changes', { client_id: clientId, limit: 200 }, org.key)
  t.equal(firstChanges.length, first.progress.pages_recorded, 'one change per page recorded')
  t.ok(
    firstChanges.every((c) => c.kind === 'page_added' && c.attribution === 'unknown'),
    'the first crawl: first observations only',
  )

  const before = await ts.call<Architecture>('get_site_architecture', { client_id: clientId }, org.key)
  t.match(before, { basis: 'crawl', scan_id: first.session_id })
  const node = (arch: Architecture, path: string) => arch.pages.find((p) => p.url.replace(/\/$/, '') === at(path).replace(/\/$/, ''))
  t.ok(
    before.orphan_pages.some((p) => p.url === at(FIXTURE_PATHS.orphan)),
    'the orphan is in the sitemap, linked from nowhere',
  )
  t.match(node(before, FIXTURE_PATHS.orphan), { depth: null, inlinks: 0, in_sitemap: true })
  t.match(node(before, FIXTURE_PATHS.about), { depth: 1, inlinks: 2 }, 'about: linked from home and products')
  t.ok(node(before, FIXTURE_PATHS.about)!.inlink_sources.includes(at(FIXTURE_PATHS.products)))

  // 2. A site edit on /products: a new title, heading and text, a link to the orphan, and no link to /about.
  const title = 'Garden tools and seeds | Acme'
  const content =
    '<h1>Garden tools and seeds</h1><p>Hand forged trowels, heirloom tomato seeds and compost bins chosen by our growers for small city gardens.</p>' +
    '<p>Every order ships in recycled paper within two working days.</p><p><a href="/orphan">Read the forgotten page</a></p>'
  const editId = await ts.call<number>(
    'create_site_edit',
    {
      client_id: clientId,
      operation: 'elementor_rewrite',
      payload: JSON.stringify({ proposed_content: content, title }),
      page_url: at(FIXTURE_PATHS.products),
    },
    org.key,
  )
  const applied = await ts.call<{ status: string; page_id: number }>('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, org.key)
  t.match(applied, { status: 'applied', page_id: productsId }, 'the edit is published to the crawled page')
  // The built-in publisher records a snapshot and never reaches the site: serve what the edit published, as a
  // real publisher (WordPress, Elementor) would have left the page.
  site.setPage(
    FIXTURE_PATHS.products,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${content}<a href="/">Home</a></main></body></html>`,
  )

  // 3. The apply set a 15-minute publish cooldown that holds scans back (domain/monitoring/cooldowns: the site is
  // left to settle before it is crawled). Wait it out as the cooldown tests do, on the hand clock, rather than
  // clearing it: the crawl below is the one the service itself would run once the site has settled.
  expectError(t, await ts.rpc('start_site_scan', { client_id: clientId }, org.key), 409, 'client_in_cooldown')
  clock.advance(16 * 60_000)
  t.equal(await ts.call('is_client_in_cooldown', { client_id: clientId, reason: 'publish' }, org.key), false)

  // 4. The second crawl: only the edited page says something new.
  const second = await crawlOnce(ts, org.key, clientId, 'the second crawl')
  t.equal(second.status, 'completed', JSON.stringify(second.error))
  t.equal(second.progress.pages_recorded, 1, 'one page recorded: the edited one')
  t.equal(second.progress.pages_unchanged, first.progress.pages_fetched! - 1, 'every other page fetched again, unchanged')
  t.same(
    (await ts.call<{ source: string }[]>('get_snapshots_for_page', { page_id: productsId }, org.key)).map((s) => s.source),
    ['crawl', 'site_edit', 'crawl'],
    'the products page: crawled, published, crawled again (newest first)',
  )

  const all = await ts.call<Change[]>('get_site_changes', { client_id: clientId, limit: 200 }, org.key)
  const known = new Set(firstChanges.map((c) => c.id))
  const fresh = all.filter((c) => !known.has(c.id))
  t.same(
    fresh.map((c) => [c.page_id, c.kind, c.attribution, c.edit_id]).sort(),
    [
      [productsId, 'body_changed', 'site_edit', editId],
      [productsId, 'headings_changed', 'site_edit', editId],
      [productsId, 'title_changed', 'site_edit', editId],
    ].sort(),
    'the edited page’s changes, each attributed to the edit; no other page changed',
  )
  t.match(
    fresh.find((c) => c.kind === 'title_changed'),
    { url: at(FIXTURE_PATHS.products), before: 'Products', after: title },
  )
  t.same(await ts.call('get_site_changes', { client_id: clientId, attribution: 'external' }, org.key), [], 'nothing external')
  t.same(
    (await ts.call<Change[]>('get_site_changes', { client_id: clientId, attribution: 'site_edit' }, org.key)).map((c) => c.id).sort(),
    fresh.map((c) => c.id).sort(),
    'the attribution filter finds the same three',
  )

  // 5. The architecture from the second crawl: the links the crawler followed on the new page.
  const after = await ts.call<Architecture>('get_site_architecture', { client_id: clientId }, org.key)
  t.match(after, { basis: 'crawl', scan_id: second.session_id })
  t.notOk(
    after.orphan_pages.some((p) => p.url === at(FIXTURE_PATHS.orphan)),
    'the orphan is linked now: no longer an orphan',
  )
  t.match(node(after, FIXTURE_PATHS.orphan), { depth: 2, inlinks: 1, inlink_sources: [at(FIXTURE_PATHS.products)] })
  t.match(node(after, FIXTURE_PATHS.about), { depth: 1, inlinks: 1 }, 'about: the edit dropped the products page’s link')
  t.notOk(node(after, FIXTURE_PATHS.about)!.inlink_sources.includes(at(FIXTURE_PATHS.products)))
  t.match(node(after, FIXTURE_PATHS.products), { depth: 1 }, 'still linked from home')
})
