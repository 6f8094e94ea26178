/**
 * Scans end to end, through HTTP with the processors running against the test site on 127.0.0.1: start a
 * crawl → progress and pages appear → snapshots recorded; a second crawl with nothing changed records no
 * snapshot, a changed page records one; sessions (get_last_scan_session, get_scan_session, list_scan_sessions);
 * an agent's session closed with complete_scan_session; the cadence; a cooldown refusal; scoping.
 */
import t from 'tap'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import { FIXTURE_PATHS, startTestSite } from '../support/stand-ins/test-site.js'
import { startTestSystem } from '../support/system.js'
import { eventually, handClock } from './aeo-runs-helpers.js'
import { expectError, orgWithKey, withoutIds } from './helpers.js'

type Session = {
  session_id: number
  status: string
  scan_type: string
  progress: {
    pages_found: number
    pages_fetched: number
    pages_recorded: number
    pages_unchanged: number
    pages_skipped: number
    pages_failed: number
    sitemaps_read: number
  }
  error: { code: string; message: string } | null
  [k: string]: unknown
}

const monitoring = {
  ...DEFAULT_MONITORING_SETTINGS,
  allowList: parseAllowList('127.0.0.1')!,
  delayMs: 0,
  hostConcurrency: 4,
  timeoutMs: 3_000,
  pollMs: 200,
  maxPages: 100,
  chromiumPath: '/nonexistent/chromium',
}

t.test('crawl scans: progress, snapshots only on change, sessions, cadence, cooldown, scoping', async (t) => {
  const site = await startTestSite()
  t.teardown(() => site.close())
  const clock = handClock('2026-11-26T08:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, monitoring, runProcessors: true })
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const clientId = await ts.call<number>('add_client', { client: { name: 'Acme Garden', website_url: `${site.url}/` } }, org.key)

  const started = await ts.call<Session & { created: boolean }>('start_site_scan', { client_id: clientId }, org.key)
  t.match(started, { client_id: clientId, scan_type: 'crawl', trigger: 'manual', created: true })
  t.ok(['queued', 'running'].includes(started.status), 'queued (or already taken)')
  const again = await ts.call<Session & { created: boolean }>('start_site_scan', { client_id: clientId, scan_type: 'crawl' }, org.key)
  t.equal(again.session_id, started.session_id, 'one open crawl per client: the open one')
  t.equal(again.created, false)

  const first = await eventually(async () => {
    const s = await ts.call<Session>('get_last_scan_session', { client_id: clientId }, org.key)
    return s && (s.status === 'completed' || s.status === 'failed') ? s : undefined
  }, 'the first crawl')
  t.equal(first.status, 'completed', JSON.stringify(first.error))
  t.equal(first.attempt, 1)
  t.ok(first.progress.pages_recorded >= 5, `pages recorded (${first.progress.pages_recorded})`)
  t.ok(first.progress.sitemaps_read >= 1, 'sitemaps read')
  t.ok(first.progress.pages_skipped >= 1, 'the robots-disallowed page skipped')
  t.equal(first.progress.pages_unchanged, 0, 'a first crawl: every fetched page is new')
  t.equal(
    first.progress.pages_found,
    first.progress.pages_fetched + first.progress.pages_skipped + first.progress.pages_failed,
    'every URL has one outcome',
  )
  t.ok(!site.paths().includes(FIXTURE_PATHS.disallowed), 'robots.txt obeyed')

  const pages = await ts.call<{ page_id: number; url: string }[]>('get_pages_for_client', { client_id: clientId }, org.key)
  const about = pages.find((p) => p.url.endsWith('/about'))
  t.ok(about, 'the crawled pages are the client’s pages')
  const aboutSnapshot = await ts.call<any>('get_latest_snapshot', { page_id: about!.page_id }, org.key)
  t.ok(aboutSnapshot, 'with a snapshot')
  const changing = pages.find((p) => p.url.endsWith(FIXTURE_PATHS.changing))!
  const changingBefore = await ts.call<any[]>('get_snapshots_for_page', { page_id: changing.page_id }, org.key)
  t.equal(changingBefore.length, 1)

  await t.test('a second crawl with nothing changed records no snapshot; a changed page records one', async (t) => {
    const second = await ts.call<Session>('start_site_scan', { client_id: clientId }, org.key)
    t.not(second.session_id, first.session_id, 'the first is closed: a new one')
    const done = await eventually(async () => {
      const s = await ts.call<Session>('get_scan_session', { session_id: second.session_id }, org.key)
      return s.status === 'completed' || s.status === 'failed' ? s : undefined
    }, 'the second crawl')
    t.equal(done.status, 'completed')
    t.equal(done.progress.pages_recorded, 0, 'nothing changed: no snapshot')
    t.equal(done.progress.pages_unchanged, first.progress.pages_fetched, 'every page fetched again, unchanged')
    t.equal((await ts.call<any[]>('get_snapshots_for_page', { page_id: about!.page_id }, org.key)).length, 1)

    site.setPage(
      FIXTURE_PATHS.changing,
      '<!doctype html><html><head><title>Brand new</title></head><body><h1>All new</h1><p>Fresh words here.</p></body></html>',
    )
    const third = await ts.call<Session>('start_site_scan', { client_id: clientId }, org.key)
    const thirdDone = await eventually(async () => {
      const s = await ts.call<Session>('get_scan_session', { session_id: third.session_id }, org.key)
      return s.status === 'completed' || s.status === 'failed' ? s : undefined
    }, 'the third crawl')
    t.equal(thirdDone.progress.pages_recorded, 1, 'the changed page only')
    const snapshots = await ts.call<any[]>('get_snapshots_for_page', { page_id: changing.page_id }, org.key)
    t.equal(snapshots.length, 2, 'a second snapshot of the changed page')
    const list = await ts.call<Session[]>('list_scan_sessions', { client_id: clientId }, org.key)
    t.same(
      list.map((s) => s.session_id),
      [third.session_id, second.session_id, first.session_id],
      'newest first',
    )
  })

  await t.test('an agent’s session: opened running, closed once with its figures', async (t) => {
    const session = await ts.call<Session & { created: boolean }>(
      'start_site_scan',
      { client_id: clientId, scan_type: 'keywords' },
      org.key,
    )
    t.match(session, { scan_type: 'keywords', status: 'running', created: true })
    const closed = await ts.call<Session>(
      'complete_scan_session',
      { session_id: session.session_id, keywords_checked: 25, pages_scanned: 4 },
      org.key,
    )
    t.match(closed, { status: 'completed', keywords_checked: 25, pages_scanned: 4 })
    t.ok(closed.finished_at)
    expectError(t, await ts.rpc('complete_scan_session', { session_id: session.session_id }, org.key), 409, 'scan_session_closed')
    t.match(await ts.call('get_last_scan_session', { client_id: clientId, scan_type: 'keywords' }, org.key), {
      session_id: session.session_id,
    })
    const audit = await ts.call<Session>('start_site_scan', { client_id: clientId, scan_type: 'audit' }, org.key)
    t.match(await ts.call('complete_scan_session', { session_id: audit.session_id, status: 'failed' }, org.key), {
      status: 'failed',
      error: { code: 'closed_by_caller' },
    })
    const crawlLast = await ts.call<Session>('get_last_scan_session', { client_id: clientId, scan_type: 'crawl' }, org.key)
    t.equal(crawlLast.scan_type, 'crawl', 'scan_type filters')
  })

  await t.test('cadence: set, read; the scheduler queues a crawl when due', async (t) => {
    t.match(await ts.call('get_scan_cadence', { client_id: clientId }, org.key), { frequency: 'off', updated_at: null })
    const cadence = await ts.call('set_scan_cadence', { client_id: clientId, frequency: 'daily' }, org.key)
    t.match(cadence, { client_id: clientId, frequency: 'daily', scan_type: 'crawl' })
    t.same(await ts.call('get_scan_cadence', { client_id: clientId }, org.key), cadence)
    const before = (await ts.call<Session>('get_last_scan_session', { client_id: clientId, scan_type: 'crawl' }, org.key)).session_id
    clock.set('2026-11-27T08:00:00.000Z')
    const scheduled = await eventually(async () => {
      const s = await ts.call<Session>('get_last_scan_session', { client_id: clientId, scan_type: 'crawl' }, org.key)
      return s.session_id !== before && s.status === 'completed' ? s : undefined
    }, 'the scheduled crawl')
    t.match(scheduled, { trigger: 'cadence', status: 'completed' })
    await ts.call('set_scan_cadence', { client_id: clientId, frequency: 'off' }, org.key)
  })

  await t.test('a client in cooldown: start_site_scan answers 409 client_in_cooldown', async (t) => {
    await ts.call('set_client_cooldown', { client_id: clientId, reason: 'operator', minutes: 60, note: 'site migration' }, org.key)
    const refused = expectError(t, await ts.rpc('start_site_scan', { client_id: clientId }, org.key), 409, 'client_in_cooldown')
    t.match(refused.detail, /operator/)
    await ts.call('clear_client_cooldown', { client_id: clientId, reason: 'operator' }, org.key)
  })

  await t.test('render scans without Chromium fail render_unavailable; three failures in a row cool the client down', async (t) => {
    for (let i = 1; i <= 3; i++) {
      const render = await ts.call<Session>('start_site_scan', { client_id: clientId, scan_type: 'render' }, org.key)
      const failed = await eventually(async () => {
        const s = await ts.call<Session>('get_scan_session', { session_id: render.session_id }, org.key)
        return s.status === 'failed' || s.status === 'completed' ? s : undefined
      }, `render scan ${i}`)
      t.match(failed, { status: 'failed', error: { code: 'render_unavailable', message: /CHROMIUM_PATH/ } })
    }
    const cooldown = await eventually(
      async () => ts.call<any>('get_client_cooldown', { client_id: clientId, reason: 'scan_failures' }, org.key),
      'the scan_failures cooldown',
    )
    t.match(cooldown, { reason: 'scan_failures', active: true })
    expectError(t, await ts.rpc('start_site_scan', { client_id: clientId }, org.key), 409, 'client_in_cooldown')
    await ts.call('clear_client_cooldown', { client_id: clientId, reason: 'scan_failures' }, org.key)
  })

  await t.test('scoping: another organization’s client and session answer like missing ones', async (t) => {
    const foreign = expectError(t, await ts.rpc('get_scan_session', { session_id: first.session_id }, other.key), 404, 'not_found')
    const missing = expectError(t, await ts.rpc('get_scan_session', { session_id: 999_999 }, other.key), 404, 'not_found')
    t.same(withoutIds(foreign, [first.session_id]), withoutIds(missing, [999_999]))
    expectError(t, await ts.rpc('complete_scan_session', { session_id: first.session_id }, other.key), 404, 'not_found')
    for (const method of ['start_site_scan', 'get_last_scan_session', 'list_scan_sessions', 'get_scan_cadence']) {
      expectError(t, await ts.rpc(method, { client_id: clientId }, other.key), 404, 'not_found', method)
    }
    expectError(t, await ts.rpc('set_scan_cadence', { client_id: clientId, frequency: 'daily' }, other.key), 404, 'not_found')
    expectError(t, await ts.rpc('start_site_scan', { client_id: clientId, scan_type: 'Bad Type!' }, org.key), 400, 'validation_failed')
  })
})
