import type { ScanRef } from '../../../commands/monitoring/scans.js'
import type { PageState } from '../../../domain/monitoring/page-state.js'
import { pageUrlKey } from '../../../domain/pages/url.js'
import { pagesForClient } from '../../../projections/pages/queries.js'
import type { ProcessorDeps } from '../../runtime.js'
import { crawl, type CrawlValidators } from './crawler/crawl.js'
import type { ScanRecorder } from './scan-recorder.js'
import { validatorsOf } from './validators.js'

export interface ScanInput {
  readonly deps: ProcessorDeps
  readonly scan: ScanRef
  readonly startUrl: string
  /** URLs this scan already has a result for (a resumed take): not fetched again. */
  readonly done: ReadonlySet<string>
  readonly recorder: ScanRecorder
  readonly signal: AbortSignal
}

/** The crawl's depth: -1 (reached through a sitemap or a seed only) is shown as unknown. */
const depthOf = (depth: number) => (depth >= 0 ? depth : null)

/**
 * A crawl scan: the crawl engine (crawler/crawl.ts) from the client's website URL, with its active pages as seeds
 * (so a page gone from the site is fetched and seen gone), the URLs already recorded as done, and each page's
 * last ETag / Last-Modified for conditional requests; every result goes to the recorder, in order.
 */
export async function crawlInto(input: ScanInput): Promise<void> {
  const { deps, scan, recorder } = input
  const active = await pagesForClient(deps.read, scan.clientId, true)
  const seeds = active.map((p) => p.url)
  const done = new Map<string, PageState | null>([...input.done].map((url) => [url, null]))
  const validators: ReadonlyMap<string, CrawlValidators> = await validatorsOf(deps.read, active)
  // A 304 answers only a conditional request, sent for an active page: its row names that page, so the
  // architecture reads the links its last snapshot saw (a row without a page has none).
  const pageIdOf = new Map(active.map((p) => [pageUrlKey(p.url), p.id]))
  const results = crawl({ startUrl: input.startUrl, seeds, settings: deps.monitoring, done, validators, signal: input.signal })
  for await (const r of results) {
    if (recorder.stopped !== null) break
    switch (r.kind) {
      case 'page':
        await recorder.add({
          kind: 'page',
          page: { url: r.url, state: r.state, etag: r.validators.etag, lastModified: r.validators.lastModified },
          row: { url: r.url, status: r.state.status, in_sitemap: r.inSitemap, depth: depthOf(r.depth), code: null },
        })
        break
      case 'not_modified':
        await recorder.add({
          kind: 'row',
          row: {
            url: r.url,
            page_id: pageIdOf.get(pageUrlKey(r.url)) ?? null,
            status: 304,
            in_sitemap: r.inSitemap,
            depth: depthOf(r.depth),
            outcome: 'not_modified',
            code: null,
          },
        })
        break
      case 'skipped':
        await recorder.add({
          kind: 'row',
          row: { url: r.url, page_id: null, status: null, in_sitemap: r.inSitemap, depth: null, outcome: 'skipped', code: r.reason },
        })
        break
      case 'failed':
        await recorder.add({
          kind: 'row',
          row: { url: r.url, page_id: null, status: null, in_sitemap: r.inSitemap, depth: null, outcome: 'failed', code: r.code },
        })
        break
      case 'sitemap':
        await recorder.sitemap({ url: r.url, urls: r.urls, truncated: r.truncated, error: r.error === null ? null : r.error.slice(0, 500) })
        break
    }
  }
}
