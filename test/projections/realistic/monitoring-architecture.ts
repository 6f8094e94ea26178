import { createHash } from 'node:crypto'
import { systemContext } from '../../../commands/command-handler.js'
import { recordCrawledPages } from '../../../commands/monitoring/snapshots.js'
import type { PageState } from '../../../domain/monitoring/page-state.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { readModelsAt } from '../../support/read-models.js'

/** A crawled page's state with these internal links (the rest plain), hashed over what it says. */
function crawledState(site: string, path: string, links: string[], version = 1): PageState {
  const url = `${site}${path}`
  const internal = links.map((l) => `${site}${l}`)
  return {
    url,
    final_url: url,
    status: 200,
    redirects: [],
    content_type: 'text/html; charset=utf-8',
    canonical: url,
    robots: null,
    noindex: false,
    title: `${path} (v${version})`,
    meta_description: null,
    headings: [{ level: 1, text: path }],
    word_count: 3,
    internal_links: internal,
    outgoing_links: [],
    images: [],
    json_ld_types: [],
    hreflang: [],
    main_text: `Page ${path} version ${version}`,
    truncated: false,
    content_hash: createHash('sha256').update(JSON.stringify({ url, internal, version })).digest('hex'),
  }
}

/**
 * The architecture part of the realistic log: page_links is projected from PageSnapshotRecorded, so this
 * records crawled pages with links (recordCrawledPages, as a scan does), then a page's next state with one
 * link fewer (its links replaced), the same batch again (nothing recorded), a redirect, and a snapshot posted
 * with add_snapshot (no state: the links stay).
 */
export async function writeArchitectureLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const [plumbers] = log.clientIds as [number]
  const [orgA] = log.orgIds as [number]
  const client = await ts.call<{ website_url: string }>('get_client', { client_id: plumbers }, keys.orgA)
  const site = client.website_url.replace(/\/+$/, '')
  const context = systemContext('architecture-log')
  const record = (states: PageState[]) =>
    recordCrawledPages(ts.system.write, context, {
      orgId: orgA,
      clientId: plumbers,
      scanId: 1,
      source: 'crawl',
      pages: states.map((state) => ({ url: state.url, state })),
    })
  const first = [
    crawledState(site, '/', ['/services', '/contact', '/moved']),
    crawledState(site, '/services', ['/', '/services/drains', '/contact']),
    crawledState(site, '/services/drains', ['/services']),
    crawledState(site, '/contact', []),
  ]
  await record(first)
  await record(first) // a resumed scan's batch again: nothing new
  const moved = { ...crawledState(site, '/moved', []), final_url: `${site}/services`, redirects: [{ url: `${site}/moved`, status: 301 }] }
  const result = await record([crawledState(site, '/services', ['/', '/services/drains'], 2), moved])
  const servicesPage = result.results[0]!.pageId
  await readModelsAt(ts, result.position) // direct commands skip read-your-writes
  await ts.call('add_snapshot', { snapshot: { page_id: servicesPage, title: 'Services', content: '<p>Posted by hand</p>' } }, keys.orgA)
}
