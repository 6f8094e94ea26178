/**
 * A rank check across a process death: the service runs as a child process (ops/cli.ts serve, all roles)
 * on a database of the test's own, against a slow DataForSEO stand-in; it is killed with SIGKILL in the middle
 * of a check. A second process takes the check once the dead worker's lease runs out (attempt 2), searches
 * only the keywords whose ranks were not recorded yet, and completes it: every rank of the day is in the log
 * exactly once.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { createTestDatabase } from '../support/database.js'
import { startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import { call, randomKey, ROOT, sandbox, waitUntil } from '../ops/spawn.js'

/** node with tsx's loader running the CLI, one process: SIGKILL reaches the service itself. */
const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'ops/cli.ts'), 'serve']

const KEYWORDS = Array.from({ length: 12 }, (_, i) => `emergency plumber ${i + 1}`)

t.test('a check killed mid-run is resumed by the next process and records each rank once', async (t) => {
  const database = await createTestDatabase(t)
  const box = await sandbox(t)
  const standIn = await startDataForSeoSerpStandIn(t)
  standIn.otherwise({ kind: 'ok', delayMs: 400 })
  const platformKey = randomKey()
  const env = {
    DATABASE_URL: database.url,
    PLATFORM_KEY: platformKey,
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATAFORSEO_LOGIN: standIn.login,
    DATAFORSEO_PASSWORD: standIn.password,
    DATAFORSEO_BASE_URL: standIn.baseUrl,
    SERPAPI_KEY: undefined,
    // A lease of 5 s (twice the timeout, at least 5 s), a heartbeat (and rows recorded) every 1.25 s.
    SEARCH_PROVIDER_TIMEOUT_MS: '2000',
    SEARCH_POLL_MS: '200',
    RANK_CHECK_CONCURRENCY: '1',
  }
  const first = await box.serve(env, { command: COMMAND })
  const orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Acme' }, platformKey)
  const { key } = await call<{ key: string }>(first.baseUrl, 'create_api_key', { name: 'acme', org_id: orgId }, platformKey)
  const clientId = await call<number>(
    first.baseUrl,
    'add_client',
    { client: { name: 'Plumbers', website_url: 'https://plumbers.example' } },
    key,
  )
  for (const keyword of KEYWORDS) await call(first.baseUrl, 'add_keyword', { keyword: { client_id: clientId, keyword } }, key)
  await call(first.baseUrl, 'set_rank_cadence', { client_id: clientId, frequency: 'off', devices: ['desktop'] }, key)
  const { id: checkId } = await call<{ id: number }>(first.baseUrl, 'run_rank_check', { client_id: clientId }, key)

  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  t.teardown(() => pool.end())
  /** Keywords whose rank the log holds, one entry per recorded row. */
  const recorded = async (): Promise<string[]> => {
    const { rows } = await pool.query<{ data: any }>(
      "select data from es_events where type = 'KeywordRanksRecorded' and stream_name like $1 order by global_position",
      [`keyword_ranks-${clientId}-%`],
    )
    const ids = rows.flatMap(({ data }) => (data.rows as { keyword_id: number }[]).map((r) => r.keyword_id))
    const { rows: names } = await pool.query<{ id: string; keyword: string }>(
      'select id::text, keyword from read_models.keywords where client_id = $1',
      [clientId],
    )
    const byId = new Map(names.map((n) => [Number(n.id), n.keyword]))
    return ids.map((id) => byId.get(id) ?? String(id))
  }

  // Some ranks recorded (a heartbeat's batch), the check still running: kill -9.
  await waitUntil('ranks recorded mid-check', 60_000, async () => ((await recorded()).length >= 3 ? true : undefined))
  first.child.kill('SIGKILL')
  t.equal((await first.exited).signal, 'SIGKILL')
  const beforeRestart = await recorded()
  t.ok(beforeRestart.length < KEYWORDS.length, `the check was cut off (${beforeRestart.length} of ${KEYWORDS.length} recorded)`)
  const searchedBefore = standIn.searches.length

  const second = await box.serve(env, { command: COMMAND })
  const done = await waitUntil('the resumed check', 60_000, async () => {
    const check = await call<any>(second.baseUrl, 'get_rank_check', { check_id: checkId }, key)
    return check.status === 'completed' ? check : undefined
  })
  t.match(done, { status: 'completed', attempt: 2, tasks_total: KEYWORDS.length, tasks_done: KEYWORDS.length, tasks_failed: 0 })

  const after = await recorded()
  t.equal(after.length, KEYWORDS.length, 'every rank recorded')
  t.same([...after].sort(), [...KEYWORDS].sort(), 'each keyword once: none lost, none twice')
  const resumedSearches = standIn.searches.slice(searchedBefore).map((s) => s.keyword)
  t.same(
    resumedSearches.filter((k) => beforeRestart.includes(k)),
    [],
    'the resumed check searched none of the ranks recorded before the kill',
  )
  t.ok(resumedSearches.length <= KEYWORDS.length - beforeRestart.length, 'it searched only what was missing')
  const { rows: started } = await pool.query<{ data: any }>(
    "select data from es_events where type = 'RankCheckStarted' and stream_name = $1 order by stream_revision",
    [`rank_checks-${clientId}`],
  )
  t.same(
    started.map((e) => [e.data.attempt, e.data.tasks_recorded]),
    [
      [1, 0],
      [2, beforeRestart.length],
    ],
    'taken twice; the second take found the recorded ranks',
  )
})
