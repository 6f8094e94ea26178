import { createHash } from 'node:crypto'
import { loadClient } from '../../commands/clients.js'
import { loadState, type CommandContext, type WriteDeps } from '../../commands/command-handler.js'
import { recordRender } from '../../commands/monitoring/renders.js'
import { completeSiteScan, queueSiteScan, recordScanPages, startSiteScan } from '../../commands/monitoring/scans.js'
import { renderIdOf } from '../../domain/monitoring/renders/scan-renders.js'
import { pageSet } from '../../domain/pages/page-set.js'
import { pageUrlKey } from '../../domain/pages/url.js'

const LEASE_MS = 60_000

/**
 * The sandbox's fictional render: a render scan of the client's home page twenty minutes ago, completed, written
 * through the scans' and renders' commands (nothing is rendered: the sandbox's site is fiction, and the
 * processors never scan the sandbox). The render names no files (html and screenshot null: the seeder has no
 * file store, and a made-up screenshot would show nothing true) and no snapshot (the snapshots seed records
 * the page's content). Queued as the schedule queues one (trigger cadence): the sandbox's seeded publish cooldown
 * refuses a manual scan, as it would a visitor's. A second seed of the same log changes nothing.
 */
export async function seedSandboxRenders(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const clocked = (minutesAgo: number): WriteDeps => ({ ...write, clock: () => new Date(now.getTime() - minutesAgo * 60_000) })
  const client = await loadClient(write.store, clientId)
  const home = new URL(client.websiteUrl).toString()
  const page = (await loadState(write.store, pageSet, clientId)).pages.find((p) => p.active && pageUrlKey(p.url) === pageUrlKey(home))

  const queued = await queueSiteScan(clocked(21), ctx, { callerOrgId: orgId, clientId, scanType: 'render', trigger: 'cadence' })
  if (!queued?.created) return
  const ref = { scanId: queued.scanId, clientId, orgId }
  const taken = await startSiteScan(clocked(20), ctx, ref, { leaseMs: LEASE_MS, worker: 'sandbox', startUrl: home })
  const attempt = taken.state.attempt
  const urlHash = createHash('sha256').update(pageUrlKey(home)).digest('hex').slice(0, 16)
  await recordRender(clocked(20), ctx, {
    orgId,
    render: {
      render_id: renderIdOf(queued.scanId, urlHash),
      scan_id: queued.scanId,
      client_id: clientId,
      page_url: home,
      page_id: page?.id ?? null,
      final_url: home,
      status: 200,
      html: null,
      screenshot: null,
      html_truncated: false,
      content_hash: null,
      snapshot_id: null,
      requests_blocked: 0,
      blocked_urls: [],
      rendered_at: clocked(20).clock().toISOString(),
      error: null,
    },
  })
  await recordScanPages(clocked(20), ctx, ref, {
    attempt,
    leaseMs: LEASE_MS,
    pages: [{ url: home, page_id: page?.id ?? null, status: 200, in_sitemap: false, depth: null, outcome: 'unchanged', code: null }],
  })
  await completeSiteScan(clocked(19), ctx, ref, attempt)
}
