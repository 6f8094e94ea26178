import { pagesForClient } from '../../../projections/pages/queries.js'
import { runRenderScan } from '../renders/run.js'
import type { ScanInput } from './crawl-into.js'

/**
 * A render scan: runRenderScan (processors/monitoring/renders) renders the client's home page and active pages in headless Chromium and
 * records each (its render, and the snapshot when the rendered content changed); each URL's outcome goes to
 * the recorder as the scan's progress. Without Chromium it throws render_unavailable, and the scan fails so.
 */
export async function renderInto(input: ScanInput): Promise<void> {
  const { deps, scan, recorder } = input
  const urls = (await pagesForClient(deps.read, scan.clientId, true)).map((p) => p.url)
  await runRenderScan(
    deps,
    { scanId: scan.scanId, orgId: scan.orgId, clientId: scan.clientId, websiteUrl: input.startUrl, urls, done: input.done },
    input.signal,
    async (r) => {
      await recorder.add({
        kind: 'row',
        row: { url: r.url, page_id: r.pageId, status: r.status, in_sitemap: false, depth: null, outcome: r.outcome, code: r.code },
      })
    },
  )
}
