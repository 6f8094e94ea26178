import { systemContext } from '../../../commands/command-handler.js'
import { recordRender } from '../../../commands/monitoring/renders.js'
import type { PageRendered } from '../../../domain/monitoring/renders/events.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

const hash = (c: string) => c.repeat(64)

/**
 * The renders part of the realistic log, through the render runner's command (no Chromium here): a render
 * scan that rendered the home page (a new snapshot) and failed on a refused address, the same URL recorded
 * again (nothing), and a second scan whose render of the home page is unchanged. The snapshot ids are the
 * render's own claim; page_renders does not join them.
 */
export async function writeRendersLog(ts: TestSystem, log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {
  const write = ts.system.write
  const context = systemContext('render-scan-runner')
  const orgId = log.orgIds[0]!
  const clientId = log.clientIds[0]!
  const home = 'https://plumbers.example/'
  const rendered = (scanId: number, urlHash: string, at: string, snapshotId: number | null): PageRendered => ({
    render_id: `${scanId}-${urlHash}`,
    scan_id: scanId,
    client_id: clientId,
    page_url: home,
    page_id: null,
    final_url: home,
    status: 200,
    html: { path: `renders/${orgId}/${clientId}/${scanId}/${urlHash}.html`, bytes: 18_204, sha256: hash('a') },
    screenshot: {
      path: `renders/${orgId}/${clientId}/${scanId}/${urlHash}.png`,
      bytes: 120_331,
      sha256: hash('b'),
      width: 1280,
      height: 2400,
    },
    html_truncated: false,
    content_hash: hash('c'),
    snapshot_id: snapshotId,
    requests_blocked: 1,
    blocked_urls: ['http://169.254.169.254/latest/meta-data/'],
    rendered_at: at,
    error: null,
  })
  await recordRender(write, context, { orgId, render: rendered(7001, '0123456789abcdef', '2026-02-01T06:00:00.000Z', 4242) })
  // The same URL of the same scan again (a resumed scan): nothing recorded.
  await recordRender(write, context, { orgId, render: rendered(7001, '0123456789abcdef', '2026-02-01T06:05:00.000Z', null) })
  await recordRender(write, context, {
    orgId,
    render: {
      render_id: '7001-fedcba9876543210',
      scan_id: 7001,
      client_id: clientId,
      page_url: 'http://10.0.0.8/admin',
      page_id: null,
      final_url: null,
      status: null,
      html: null,
      screenshot: null,
      html_truncated: false,
      content_hash: null,
      snapshot_id: null,
      requests_blocked: 1,
      blocked_urls: ['http://10.0.0.8/admin'],
      rendered_at: '2026-02-01T06:00:02.000Z',
      error: { code: 'address_refused', message: 'refused by the URL policy: 10.0.0.8 is in a private range' },
    },
  })
  await recordRender(write, context, { orgId, render: rendered(7002, '0123456789abcdef', '2026-02-08T06:00:00.000Z', null) })
}
