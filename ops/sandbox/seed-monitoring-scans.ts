import { loadClient } from '../../commands/clients.js'
import { loadState, type CommandContext, type WriteDeps } from '../../commands/command-handler.js'
import {
  closeScanSession,
  completeSiteScan,
  queueSiteScan,
  recordScanPages,
  recordScanSitemap,
  setScanCadence,
  startSiteScan,
} from '../../commands/monitoring/scans.js'
import { MAX_PAGES_PER_BATCH, type ScanPageResult } from '../../domain/monitoring/scans/events.js'
import { pageSet } from '../../domain/pages/page-set.js'

const LEASE_MS = 60_000

/**
 * The sandbox's fictional scans, written through the scans' commands (nothing is fetched: the sandbox's site
 * is fiction): a weekly crawl cadence; this morning's crawl of the client's site, completed, which read its
 * sitemap and found each of its pages (the home page at depth 0, the others a click away; one URL robots.txt
 * disallows, skipped); and an agent's keyword session closed with its figures. The processors never run scans
 * for the sandbox. Deterministic for the same pages and day.
 */
export async function seedSandboxScans(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const clocked = (minutesAgo: number): WriteDeps => ({ ...write, clock: () => new Date(now.getTime() - minutesAgo * 60_000) })
  const client = await loadClient(write.store, clientId)
  const site = new URL(client.websiteUrl)
  const pages = (await loadState(write.store, pageSet, clientId)).pages.filter((p) => p.active)

  await setScanCadence(clocked(120), ctx, { callerOrgId: orgId, clientId, frequency: 'weekly', scanType: 'crawl' })

  const crawl = await queueSiteScan(clocked(90), ctx, {
    callerOrgId: orgId,
    clientId,
    scanType: 'crawl',
    trigger: 'manual',
    respectCooldown: false,
  })
  if (!crawl?.created) return // seeded already (a second seed of the same log changes nothing)
  const ref = { scanId: crawl.scanId, clientId, orgId }
  const taken = await startSiteScan(clocked(89), ctx, ref, { leaseMs: LEASE_MS, worker: 'sandbox', startUrl: site.toString() })
  const attempt = taken.state.attempt
  await recordScanSitemap(clocked(89), ctx, ref, {
    attempt,
    url: new URL('/sitemap.xml', site).toString(),
    urls: pages.length,
    truncated: false,
    error: null,
  })
  const absolute = (url: string) => new URL(url, site).toString()
  const rows: ScanPageResult[] = pages.map((p) => {
    const url = absolute(p.url)
    const home = new URL(url).pathname === '/'
    return { url, page_id: p.id, status: 200, in_sitemap: true, depth: home ? 0 : 1, outcome: 'recorded', code: null }
  })
  rows.push({
    url: absolute('/wp-admin/'),
    page_id: null,
    status: null,
    in_sitemap: false,
    depth: null,
    outcome: 'skipped',
    code: 'robots',
  })
  for (let i = 0; i < rows.length; i += MAX_PAGES_PER_BATCH) {
    await recordScanPages(clocked(88), ctx, ref, { attempt, leaseMs: LEASE_MS, pages: rows.slice(i, i + MAX_PAGES_PER_BATCH) })
  }
  await completeSiteScan(clocked(87), ctx, ref, attempt)

  const session = await queueSiteScan(clocked(60), ctx, {
    callerOrgId: orgId,
    clientId,
    scanType: 'keywords',
    trigger: 'manual',
    respectCooldown: false,
  })
  if (!session) return
  await closeScanSession(
    clocked(45),
    ctx,
    { scanId: session.scanId, clientId, orgId },
    { status: 'completed', keywordsChecked: 18, pagesScanned: pages.length },
  )
}
