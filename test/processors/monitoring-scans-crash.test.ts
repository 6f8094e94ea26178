/**
 * A crawl across a process death: the service runs as a child process (ops/cli.ts serve, all roles) on a
 * database of the test's own, crawling a slowed-down 300-page test site on 127.0.0.1; it is killed with
 * SIGKILL in the middle of the scan. The next process takes the scan once the dead worker's lease runs out
 * (attempt 2), fetches none of the URLs already recorded, and completes it: every page's snapshot is in the
 * log exactly once (none lost, none duplicated).
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { createTestDatabase } from '../support/database.js'
import { startTestSite } from '../support/stand-ins/test-site.js'
import { call, randomKey, ROOT, sandbox, waitUntil } from '../ops/spawn.js'

/** node with tsx's loader running the CLI, one process: SIGKILL reaches the service itself. */
const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'ops/cli.ts'), 'serve']

const PAGES = 300

t.test('a crawl killed mid-scan is resumed by the next process and records each snapshot once', async (t) => {
  const database = await createTestDatabase(t)
  const box = await sandbox(t)
  const site = await startTestSite({ tree: PAGES, delayMs: 25 })
  t.teardown(() => site.close())
  const platformKey = randomKey()
  const env = {
    DATABASE_URL: database.url,
    PLATFORM_KEY: platformKey,
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SITE_ALLOWED_HOSTS: '127.0.0.1',
    // A lease of 5 s (three fetch deadlines, at least 5 s): the second process takes the scan that long after the kill.
    SITE_CRAWL_TIMEOUT_MS: '1000',
    SITE_CRAWL_DELAY_MS: '0',
    SITE_CRAWL_HOST_CONCURRENCY: '1',
    SITE_CRAWL_MAX_PAGES: '1000',
    SITE_SCAN_POLL_MS: '200',
  }
  const first = await box.serve(env, { command: COMMAND })
  const orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Acme' }, platformKey)
  const { key } = await call<{ key: string }>(first.baseUrl, 'create_api_key', { name: 'acme', org_id: orgId }, platformKey)
  const clientId = await call<number>(first.baseUrl, 'add_client', { client: { name: 'Tree Shop', website_url: `${site.url}/` } }, key)
  const { session_id: scanId } = await call<{ session_id: number }>(first.baseUrl, 'start_site_scan', { client_id: clientId }, key)

  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  t.teardown(() => pool.end())
  /** The page id of every PageSnapshotRecorded of the client's pages, one entry per event. */
  const snapshots = async (): Promise<number[]> => {
    const { rows } = await pool.query<{ data: any }>(
      "select data from es_events where type = 'PageSnapshotRecorded' and stream_name like 'page-%' order by global_position",
    )
    return rows
      .map((r) => r.data)
      .filter((d) => d.client_id === clientId)
      .map((d) => d.page_id as number)
  }
  /** URLs the scan's batch events hold, one entry per result. */
  const batchUrls = async (): Promise<string[]> => {
    const { rows } = await pool.query<{ data: any }>(
      "select data from es_events where type = 'SiteScanPagesRecorded' and stream_name = $1 order by stream_revision",
      [`site_scan-${scanId}`],
    )
    return rows.flatMap((r) => (r.data.pages as { url: string }[]).map((p) => p.url))
  }

  // A few batches recorded, the scan still running: kill -9.
  await waitUntil('snapshots recorded mid-scan', 60_000, async () => ((await snapshots()).length >= 60 ? true : undefined))
  first.child.kill('SIGKILL')
  t.equal((await first.exited).signal, 'SIGKILL')
  const before = await snapshots()
  const urlsBefore = await batchUrls()
  t.ok(before.length < PAGES, `the scan was cut off (${before.length} of ${PAGES} snapshots)`)
  const requestsBefore = site.paths().length

  const second = await box.serve(env, { command: COMMAND })
  const done = await waitUntil('the resumed scan', 90_000, async () => {
    const scan = await call<any>(second.baseUrl, 'get_scan_session', { session_id: scanId }, key)
    return scan.status === 'completed' || scan.status === 'failed' ? scan : undefined
  })
  t.match(done, { status: 'completed', attempt: 2, error: null })

  const after = await snapshots()
  t.equal(new Set(after).size, after.length, 'no page has two snapshots')
  t.equal(after.length, PAGES, 'every page has its snapshot')
  t.same(after.slice(0, before.length), before, 'the snapshots recorded before the kill are kept')
  const urls = await batchUrls()
  t.equal(new Set(urls).size, urls.length, 'each URL has one result in the scan')
  t.equal(done.progress.pages_recorded + done.progress.pages_unchanged, PAGES, 'every page fetched, recorded or found unchanged')
  const refetched = site
    .paths()
    .slice(requestsBefore)
    .filter((p) => urlsBefore.some((u) => new URL(u).pathname === p && p !== '/'))
  t.same(refetched, [], 'the resumed scan fetched none of the pages recorded before the kill')
  const { rows: started } = await pool.query<{ data: any }>(
    "select data from es_events where type = 'SiteScanStarted' and stream_name = $1 order by stream_revision",
    [`site_scan-${scanId}`],
  )
  t.same(
    started.map((e) => e.data.attempt),
    [1, 2],
    'taken twice',
  )
})
