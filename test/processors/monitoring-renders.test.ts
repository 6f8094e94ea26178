/**
 * Render scans against a real site on 127.0.0.1 (test/support/stand-ins/test-site.ts) in the real headless
 * Chromium: a page only its script fills is rendered, its HTML and screenshot stored and served to the
 * client's organization only, the screenshot looked at in Chromium (its size and a pixel the script painted),
 * the snapshot recorded once (source render), requests to refused addresses aborted, and render_unavailable
 * without Chromium.
 */
import net from 'node:net'
import t from 'tap'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { runRenderScan, type RenderDeps, type RenderPageOutcome, type RenderScan } from '../../processors/monitoring/renders/run.js'
import { CHROMIUM_PATH, launchChromium } from '../support/chromium.js'
import { startTestSite } from '../support/stand-ins/test-site.js'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, streamEvents } from '../http/helpers.js'
import { readModelsCaughtUp } from '../support/read-models.js'

/** A page with nothing in its HTML: the script paints a red block, writes the text, fetches data and tries the metadata address. */
const SCRIPTED_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planner</title>
<style>body{margin:0;background:#fff}</style></head><body><div id="app"></div><script>
const block = document.createElement('div')
block.style.cssText = 'position:absolute;left:0;top:0;width:400px;height:300px;background:rgb(255,0,0)'
document.body.appendChild(block)
document.getElementById('app').innerHTML = '<h1 style="margin-top:320px">Rendered by script</h1><p id="data">waiting</p>'
fetch('/data.json').then((r) => r.json()).then((d) => { document.getElementById('data').textContent = d.message })
fetch('http://169.254.169.254/latest/meta-data/').then(
  () => { document.body.dataset.metadata = 'reached' },
  () => { document.body.dataset.metadata = 'blocked' },
)
</script></body></html>`

t.test('render scans', async (t) => {
  const site = await startTestSite()
  t.teardown(() => site.close())
  site.setPage('/planner', SCRIPTED_PAGE)
  site.setPage('/data.json', '{"message":"Beds planned: 12"}', { contentType: 'application/json' })

  const monitoring = {
    ...DEFAULT_MONITORING_SETTINGS,
    allowList: parseAllowList('127.0.0.1')!,
    // evil.example is a name whose DNS answer is the cloud metadata address: refused at connect time.
    resolve: async (host: string) => (host === 'evil.example' ? ['169.254.169.254'] : ['127.0.0.1']),
    timeoutMs: 15_000,
    chromiumPath: CHROMIUM_PATH,
    renderMaxPages: 5,
  }
  const ts = await startTestSystem(t, { monitoring })
  const a = await orgWithKey(ts, 'Render A')
  const b = await orgWithKey(ts, 'Render B')
  const clientId = await ts.call<number>('add_client', { client: { name: 'Planner Co', website_url: `${site.url}/` } }, a.key)
  const deps: RenderDeps = {
    write: ts.system.write,
    blobs: new PostgresBlobStore(ts.database.db, ts.system.write.clock),
    monitoring,
  }
  const scan = (scanId: number, urls: string[], extra: Partial<RenderScan> = {}): RenderScan => ({
    scanId,
    orgId: a.orgId,
    clientId,
    websiteUrl: `${site.url}/`,
    urls,
    ...extra,
  })
  const run = async (s: RenderScan, deps_: RenderDeps = deps) => {
    const outcomes: RenderPageOutcome[] = []
    const counts = await runRenderScan(deps_, s, new AbortController().signal, async (o) => {
      outcomes.push(o)
    })
    await projected()
    return { outcomes, counts }
  }
  /** The read models have caught up with everything written so far. */
  const projected = () => readModelsCaughtUp(ts)

  await t.test('without Chromium the scan fails with render_unavailable, having rendered nothing', async (t) => {
    const before = (await streamEvents(ts, 'page_renders-9000')).length
    await t.rejects(run(scan(9000, []), { ...deps, monitoring: { ...monitoring, chromiumPath: '/nonexistent/chromium' } }), {
      code: 'render_unavailable',
      message: /headless Chromium not found at \/nonexistent\/chromium; set CHROMIUM_PATH/,
    })
    await t.rejects(run(scan(9000, []), { ...deps, monitoring: { ...monitoring, chromiumPath: null } }), { code: 'render_unavailable' })
    t.equal((await streamEvents(ts, 'page_renders-9000')).length, before, 'nothing recorded')
  })

  const browser = await launchChromium(t)
  if (browser === null) return

  const plannerUrl = `${site.url}/planner`
  const first = await run(scan(9001, [plannerUrl, `${site.url}/planner/`]))

  await t.test('the home page and the scripted page render; the duplicate URL once', async (t) => {
    t.same(first.counts, { rendered: 2, failed: 0 })
    t.same(
      first.outcomes.map((o) => [o.url, o.outcome, o.status]),
      [
        [`${site.url}/`, 'recorded', 200],
        [plannerUrl, 'recorded', 200],
      ],
    )
    const events = await streamEvents(ts, 'page_renders-9001')
    t.same(
      events.map((e) => e.type),
      ['PageRendered', 'PageRendered'],
    )
    t.equal(events[0]!.metadata.org_id, a.orgId, 'the event carries the organization')
  })

  await t.test('get_latest_render answers the rendered page; its files download to the organization only', async (t) => {
    const render = await ts.call(
      'get_latest_render',
      { client_id: clientId, url: `${site.url.toUpperCase().replace('HTTP://', 'http://')}/planner/` },
      a.key,
    )
    t.ok(render, 'found by the URL compared as pages are')
    t.match(render, {
      scan_id: 9001,
      client_id: clientId,
      page_url: plannerUrl,
      page_id: Number,
      status: 200,
      final_url: plannerUrl,
      html: { url: /^\/api\/v1\/files\/renders\//, bytes: Number, truncated: false },
      screenshot: { url: /^\/api\/v1\/files\/renders\/.*\.png$/, width: 1280, height: Number },
      snapshot_id: Number,
      error: null,
    })
    t.ok(render.requests_blocked >= 1, 'the metadata request was refused')
    t.ok(
      render.blocked_urls.some((u: string) => u.startsWith('http://169.254.169.254/')),
      'the refused URL is named',
    )
    const get = (url: string, key: string) => ts.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
    const html = await get(render.html.url, a.key)
    t.equal(html.statusCode, 200)
    t.equal(html.headers['content-type'], 'text/html; charset=utf-8')
    t.match(html.payload, /<h1[^>]*>Rendered by script<\/h1>/, 'the rendered HTML holds what the script wrote')
    t.match(html.payload, /Beds planned: 12/, 'and what its fetch brought back through the policy')
    t.match(html.payload, /data-metadata="blocked"/, 'the page saw its metadata request fail')
    t.notMatch(html.payload, /data-metadata="reached"/)
    t.equal(Number(html.headers['content-length']), render.html.bytes)
    const png = await get(render.screenshot.url, a.key)
    t.equal(png.statusCode, 200)
    t.equal(png.headers['content-type'], 'image/png')
    t.equal(png.rawPayload.length, render.screenshot.bytes)
    expectError(t, await get(render.html.url, b.key), 404, 'not_found', 'another organization: the HTML')
    expectError(t, await get(render.screenshot.url, b.key), 404, 'not_found', 'another organization: the screenshot')
    expectError(
      t,
      await ts.rpc('get_latest_render', { client_id: clientId, url: plannerUrl }, b.key),
      404,
      'not_found',
      'another organization: the client',
    )
    t.equal(
      await ts.call('get_latest_render', { client_id: clientId, url: `${site.url}/never-rendered` }, a.key),
      null,
      'a URL never rendered: null',
    )

    await t.test('the screenshot, looked at in Chromium: a full page with the red block the script painted', async (t) => {
      const page = await browser.newPage()
      t.teardown(() => page.close())
      await page.setContent(`<img id="shot" src="data:image/png;base64,${png.rawPayload.toString('base64')}">`)
      const seen = await page.evaluate(async () => {
        const img = document.getElementById('shot') as HTMLImageElement
        await img.decode()
        const canvas = document.createElement('canvas')
        canvas.width = img.naturalWidth
        canvas.height = img.naturalHeight
        const g = canvas.getContext('2d')!
        g.drawImage(img, 0, 0)
        return {
          width: img.naturalWidth,
          height: img.naturalHeight,
          block: [...g.getImageData(200, 150, 1, 1).data],
          outside: [...g.getImageData(800, 150, 1, 1).data],
        }
      })
      t.equal(seen.width, render.screenshot.width, 'width as recorded')
      t.equal(seen.height, render.screenshot.height, 'height as recorded')
      t.ok(seen.width > 0 && seen.height >= 320, 'the whole page, not an empty image')
      t.same(seen.block, [255, 0, 0, 255], 'red where the script drew the block')
      t.same(seen.outside, [255, 255, 255, 255], 'white beside it')
    })
  })

  await t.test('the snapshot records the rendered content (source render), once', async (t) => {
    const render = await ts.call('get_latest_render', { client_id: clientId, url: plannerUrl }, a.key)
    const snapshot = await ts.call('get_latest_snapshot', { page_id: render.page_id }, a.key)
    t.ok(snapshot, 'a snapshot')
    t.equal(snapshot.id ?? snapshot.snapshot_id, render.snapshot_id, 'the one the render names')
    t.match(JSON.stringify(snapshot), /Rendered by script/, 'it holds what the script wrote')

    const again = await run(scan(9002, [plannerUrl]))
    t.same(
      again.outcomes.map((o) => [o.url, o.outcome]),
      [
        [`${site.url}/`, 'unchanged'],
        [plannerUrl, 'unchanged'],
      ],
      'a second render scan of the same pages records no snapshot',
    )
    const latest = await ts.call('get_latest_render', { client_id: clientId, url: plannerUrl }, a.key)
    t.equal(latest.scan_id, 9002, 'the latest render is the second scan’s')
    t.equal(latest.snapshot_id, null)
    t.equal(latest.content_hash, render.content_hash)
  })

  await t.test('a resumed scan renders nothing again; it reports what the runner had not recorded', async (t) => {
    const requestsBefore = site.requests.length
    const resumed = await run(scan(9001, [plannerUrl], { done: new Set([`${site.url}/`]) }))
    t.same(
      resumed.outcomes.map((o) => [o.url, o.outcome]),
      [[plannerUrl, 'recorded']],
    )
    t.same(resumed.counts, { rendered: 2, failed: 0 })
    t.equal(site.requests.length, requestsBefore, 'no request sent')
    t.equal((await streamEvents(ts, 'page_renders-9001')).length, 2, 'nothing recorded twice')
  })

  await t.test(
    'Chromium has no network of its own: a WebSocket (not interceptable) never connects, even to an allowed address',
    async (t) => {
      const connections: net.Socket[] = []
      const server = net.createServer((socket) => {
        connections.push(socket)
        socket.destroy()
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
      const port = (server.address() as net.AddressInfo).port
      site.setPage(
        '/socket',
        `<!doctype html><html><head><title>Socket</title></head><body><script>
document.body.dataset.wsAttempted = 'yes'
const ws = new WebSocket('ws://127.0.0.1:${port}/')
ws.onopen = () => { document.body.dataset.ws = 'open' }
ws.onclose = () => { document.body.dataset.ws = 'closed' }
</script></body></html>`,
      )
      const socketUrl = `${site.url}/socket`
      const rendered = await run(scan(9004, [], { websiteUrl: socketUrl }))
      t.same(
        rendered.outcomes.map((o) => [o.url, o.outcome]),
        [[socketUrl, 'recorded']],
      )
      const render = await ts.call('get_latest_render', { client_id: clientId, url: socketUrl }, a.key)
      const html = await ts.app.inject({ method: 'GET', url: render.html.url, headers: { authorization: `Bearer ${a.key}` } })
      t.match(html.payload, /data-ws-attempted="yes"/, 'the script tried')
      t.notMatch(html.payload, /data-ws="open"/, 'the socket never opened')
      t.equal(connections.length, 0, 'no connection reached the server')
    },
  )

  await t.test('a page at a refused address is a failed render, never fetched', async (t) => {
    const requestsBefore = site.requests.length
    const refused = await run(
      scan(9003, ['http://10.1.2.3/admin', 'http://evil.example/latest/meta-data/'], { websiteUrl: 'http://169.254.169.254/' }),
    )
    t.same(
      refused.outcomes.map((o) => [o.url, o.outcome, o.code]),
      [
        ['http://169.254.169.254/', 'failed', 'address_refused'],
        ['http://10.1.2.3/admin', 'failed', 'address_refused'],
        ['http://evil.example/latest/meta-data/', 'failed', 'address_refused'],
      ],
    )
    t.same(refused.counts, { rendered: 0, failed: 3 })
    t.equal(site.requests.length, requestsBefore)
    const render = await ts.call('get_latest_render', { client_id: clientId, url: 'http://evil.example/latest/meta-data/' }, a.key)
    t.match(render, { status: null, html: null, screenshot: null, page_id: null, error: { code: 'address_refused', message: /refused/ } })
  })
})
