/**
 * A render scan end to end through the API: start_site_scan with scan_type render, the scan processor runs it
 * in headless Chromium (processors/monitoring/renders), the session completes with its progress, and
 * get_latest_render answers the client's home page (a JavaScript-only page: the rendered HTML holds what its
 * script wrote). Without Chromium the session fails with render_unavailable.
 */
import t from 'tap'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { CHROMIUM_PATH, launchChromium } from '../support/chromium.js'
import { startTestSite } from '../support/stand-ins/test-site.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'

const JS_HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><div id="app"></div>
<script>document.getElementById('app').innerHTML = '<h1>Written by the home page script</h1>'</script></body></html>`

/** The newest render session once it is closed (the processor runs it on its own; the wait is bounded). */
async function closedSession(ts: TestSystem, clientId: number, key: string) {
  const deadline = Date.now() + 90_000
  for (;;) {
    const session = await ts.call('get_last_scan_session', { client_id: clientId, scan_type: 'render' }, key)
    if (session && ['completed', 'failed', 'cancelled'].includes(session.status)) return session
    if (Date.now() > deadline) throw new Error(`the render scan did not close: ${JSON.stringify(session)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const settings = (chromiumPath: string) => ({
  ...DEFAULT_MONITORING_SETTINGS,
  allowList: parseAllowList('127.0.0.1')!,
  timeoutMs: 15_000,
  pollMs: 500,
  chromiumPath,
})

t.test('start_site_scan(scan_type render) renders the home page in Chromium', async (t) => {
  if ((await launchChromium(t)) === null) return
  const site = await startTestSite()
  t.teardown(() => site.close())
  site.setPage('/', JS_HOME)
  const ts = await startTestSystem(t, { monitoring: settings(CHROMIUM_PATH), runProcessors: true })
  const a = await orgWithKey(ts, 'Render HTTP')
  const clientId = await ts.call<number>('add_client', { client: { name: 'Script Shop', website_url: `${site.url}/` } }, a.key)
  await ts.call('start_site_scan', { client_id: clientId, scan_type: 'render' }, a.key)
  const session = await closedSession(ts, clientId, a.key)
  t.equal(session.status, 'completed', JSON.stringify(session.error))
  t.equal(session.progress.pages_recorded, 1, 'the home page recorded a snapshot')
  const render = await ts.call('get_latest_render', { client_id: clientId, url: site.url }, a.key)
  t.match(render, { scan_id: session.session_id, status: 200, error: null, html: { url: /^\/api\/v1\/files\// } })
  const html = await ts.app.inject({ method: 'GET', url: render.html.url, headers: { authorization: `Bearer ${a.key}` } })
  t.match(html.payload, /<h1>Written by the home page script<\/h1>/)
})

t.test('without Chromium the render session fails with render_unavailable', async (t) => {
  const site = await startTestSite()
  t.teardown(() => site.close())
  const ts = await startTestSystem(t, { monitoring: settings('/nonexistent/chromium'), runProcessors: true })
  const a = await orgWithKey(ts, 'Render HTTP')
  const clientId = await ts.call<number>('add_client', { client: { name: 'No Browser', website_url: `${site.url}/` } }, a.key)
  await ts.call('start_site_scan', { client_id: clientId, scan_type: 'render' }, a.key)
  const session = await closedSession(ts, clientId, a.key)
  t.equal(session.status, 'failed')
  t.match(session.error, {
    code: 'render_unavailable',
    message: /headless Chromium not found at \/nonexistent\/chromium; set CHROMIUM_PATH/,
  })
  t.equal(await ts.call('get_latest_render', { client_id: clientId, url: site.url }, a.key), null, 'nothing rendered')
  t.same(site.requests, [], 'the site was never asked')
})
