import { systemContext } from '../../../commands/command-handler.js'
import { clearCooldown } from '../../../commands/monitoring/cooldowns.js'
import {
  completeSiteScan,
  failSiteScan,
  recordScanPages,
  recordScanSitemap,
  startSiteScan,
  type ScanRef,
} from '../../../commands/monitoring/scans.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The scans part of the realistic log: cadences (set, repeated, changed, off; a foreign one refused); the publish cooldowns of the site-edit part
 * cleared; a crawl
 * started twice (the open one answered), taken by a worker, its sitemaps and two batches of pages (one URL
 * repeated: counted once), completed; a crawl whose first worker stopped, taken again after its lease and
 * failed; a render cancelled by complete_scan_session; an agent's session closed with its figures.
 */
export async function writeScansLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const write = ts.system.write
  const context = systemContext('site-scan-runner')
  const [plumbers, heaters] = log.clientIds as [number, number]
  const orgId = log.orgIds[0]!
  // The site edits applied earlier in the log set publish cooldowns, which hold scans back: an operator ends them.
  for (const clientId of [plumbers, heaters]) await clearCooldown(write, systemContext('operator'), { callerOrgId: null, clientId })

  await call('set_scan_cadence', { client_id: plumbers, frequency: 'weekly' }, keys.orgA)
  await call('set_scan_cadence', { client_id: plumbers, frequency: 'weekly', scan_type: 'crawl' }, keys.orgA) // the same
  await call('set_scan_cadence', { client_id: plumbers, frequency: 'daily', scan_type: 'render' }, keys.orgA)
  await call('set_scan_cadence', { client_id: heaters, frequency: 'off' }, keys.orgA)
  const foreign = await ts.rpc('set_scan_cadence', { client_id: plumbers, frequency: 'off' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign scan cadence answered ${foreign.statusCode}`)

  // A crawl run to the end.
  const crawl = await call<{ session_id: number }>('start_site_scan', { client_id: plumbers }, keys.orgA)
  const again = await call<{ session_id: number; created: boolean }>(
    'start_site_scan',
    { client_id: plumbers, scan_type: 'crawl' },
    keys.orgA,
  )
  if (again.session_id !== crawl.session_id || again.created) throw new Error('a second start_site_scan opened another crawl')
  const ref: ScanRef = { scanId: crawl.session_id, clientId: plumbers, orgId }
  const taken = await startSiteScan(write, context, ref, {
    leaseMs: 60_000,
    worker: 'realistic:1',
    startUrl: 'https://acme-plumbing.example.com/',
  })
  const attempt = taken.state.attempt
  await recordScanSitemap(write, context, ref, {
    attempt,
    url: 'https://acme-plumbing.example.com/sitemap.xml',
    urls: 3,
    truncated: false,
    error: null,
  })
  const page = (url: string, extra: Record<string, unknown> = {}) => ({
    url: `https://acme-plumbing.example.com${url}`,
    page_id: null,
    status: 200,
    in_sitemap: true,
    depth: 1,
    outcome: 'recorded' as const,
    code: null,
    ...extra,
  })
  await recordScanPages(write, context, ref, {
    attempt,
    leaseMs: 60_000,
    pages: [page('/', { depth: 0 }), page('/drains'), page('/private', { status: null, depth: null, outcome: 'skipped', code: 'robots' })],
  })
  await recordScanPages(write, context, ref, {
    attempt,
    leaseMs: 60_000,
    pages: [
      page('/drains'), // yielded again: counted once
      page('/heaters', { outcome: 'unchanged' }),
      page('/old', { status: null, depth: null, outcome: 'failed', code: 'timeout', in_sitemap: false }),
      page('/pipes', { status: 304, outcome: 'not_modified' }),
    ],
  })
  await recordScanPages(write, context, ref, { attempt, leaseMs: 60_000, pages: [] }) // a heartbeat
  await completeSiteScan(write, context, ref, attempt)

  // A crawl whose worker stopped: taken again once its lease ran out (a lease already over), then failed.
  const second = await call<{ session_id: number }>('start_site_scan', { client_id: plumbers }, keys.orgA)
  const ref2: ScanRef = { scanId: second.session_id, clientId: plumbers, orgId }
  await startSiteScan(write, context, ref2, { leaseMs: -1, worker: 'realistic:dead', startUrl: 'https://acme-plumbing.example.com/' })
  const resumed = await startSiteScan(write, context, ref2, {
    leaseMs: 60_000,
    worker: 'realistic:2',
    startUrl: 'https://acme-plumbing.example.com/',
  })
  await recordScanPages(write, context, ref2, {
    attempt: resumed.state.attempt,
    leaseMs: 60_000,
    pages: [page('/', { depth: 0, outcome: 'unchanged' })],
  })
  await failSiteScan(write, context, ref2, {
    attempt: resumed.state.attempt,
    error: { code: 'crawl_failed', message: 'the database went away' },
  })

  // A render cancelled by the caller before any worker took it; an agent's session closed with its figures.
  const render = await call<{ session_id: number }>('start_site_scan', { client_id: plumbers, scan_type: 'render' }, keys.orgA)
  await call('complete_scan_session', { session_id: render.session_id, status: 'cancelled' }, keys.orgA)
  const agent = await call<{ session_id: number }>('start_site_scan', { client_id: heaters, scan_type: 'keywords' }, keys.orgA)
  await call('complete_scan_session', { session_id: agent.session_id, keywords_checked: 40, pages_scanned: 12 }, keys.orgA)
  const closed = await ts.rpc('complete_scan_session', { session_id: agent.session_id }, keys.orgA)
  if (closed.statusCode !== 409) throw new Error(`closing a closed session answered ${closed.statusCode}`)
}
