/**
 * The job engine across process deaths: the service runs as a child process on a
 * database of the test's own; a job is running when the process is killed with SIGKILL, and after a restart
 * the watchdog fails it (job.failed, reason watchdog). A graceful stop (SIGTERM) instead records the job
 * interrupted, and the restarted service resumes it as attempt 2.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import t from 'tap'
import pg from 'pg'
import { createTestDatabase } from '../support/database.js'
import { call, randomKey, ROOT, sandbox, waitUntil, type Served } from './spawn.js'

/** node with tsx's loader, one process: signals reach the service itself. */
const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'test/ops/jobs-serve.ts')]

async function http(served: Served, key: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${served.baseUrl}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  })
  return { status: response.status, body: await response.json() }
}

const jobOf = (served: Served, key: string, jobId: number) => http(served, key, 'GET', `/api/v1/jobs/${jobId}`).then((r) => r.body)

t.test('a job killed mid-run is failed by the watchdog after a restart; a graceful stop resumes it', async (t) => {
  const database = await createTestDatabase(t)
  const box = await sandbox(t)
  const platformKey = randomKey()
  const env = {
    DATABASE_URL: database.url,
    PLATFORM_KEY: platformKey,
    JOB_HEARTBEAT_SECONDS: '1',
    JOB_STALE_SECONDS: '3',
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  }
  const first = await box.serve(env, { command: COMMAND })

  const orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Acme' }, platformKey)
  const { key } = await call<{ key: string }>(first.baseUrl, 'create_api_key', { name: 'acme', org_id: orgId }, platformKey)
  const clientId = await call<number>(
    first.baseUrl,
    'add_client',
    { client: { name: 'Plumbers', website_url: 'https://plumbers.example.com' } },
    key,
  )

  const created = await http(first, key, 'POST', '/api/v1/jobs', { kind: 'ad_copy', client_id: clientId })
  t.equal(created.status, 202, JSON.stringify(created.body))
  const killed = created.body.job_id as number
  await waitUntil('the job to run', 60_000, async () => ((await jobOf(first, key, killed)).progress?.done === 1 ? true : undefined))

  // kill -9: no shutdown code runs; the job stays "running" with a lease nobody renews.
  first.child.kill('SIGKILL')
  t.equal((await first.exited).signal, 'SIGKILL')

  const second = await box.serve(env, { command: COMMAND })
  const failed = await waitUntil('the watchdog', 60_000, async () => {
    const job = await jobOf(second, key, killed)
    return job.status === 'failed' ? job : undefined
  })
  t.equal(failed.failure_reason, 'watchdog')
  t.match(failed.error, /heartbeat/)
  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  t.teardown(() => pool.end())
  const events = async (jobId: number) =>
    (
      await pool.query<{ type: string; data: any; metadata: any }>(
        'select type, data, metadata from es_events where stream_name = $1 order by stream_revision',
        [`job-${jobId}`],
      )
    ).rows
  const killedEvents = (await events(killed)).filter((e) => e.type !== 'JobProgressed')
  t.same(
    killedEvents.map((e) => e.type),
    ['JobRequested', 'JobStarted', 'JobFailed'],
  )
  t.match(killedEvents[2], {
    data: { job_id: killed, kind: 'ad_copy', client_id: clientId, reason: 'watchdog' },
    metadata: { org_id: orgId, actor: { kind: 'system', id: 'job-watchdog' } },
  })

  // A graceful stop: the job is recorded interrupted and queued again; the next start resumes it.
  const again = await http(second, key, 'POST', '/api/v1/jobs', { kind: 'ad_copy', client_id: clientId })
  t.equal(again.status, 202, 'the client is free once the watchdog failed its job')
  const resumed = again.body.job_id as number
  await waitUntil('the second job to run', 60_000, async () =>
    (await jobOf(second, key, resumed)).progress?.done === 1 ? true : undefined,
  )
  t.equal((await second.stop('SIGTERM', 20_000)).code, 0, 'a clean exit')
  const third = await box.serve(env, { command: COMMAND })
  const done = await waitUntil('the resumed job', 60_000, async () => {
    const job = await jobOf(third, key, resumed)
    return job.status === 'done' ? job : undefined
  })
  t.same(done.result, { resumed: true, attempt: 2 })
  t.same(
    (await events(resumed)).map((e) => e.type).filter((type) => type !== 'JobProgressed'),
    ['JobRequested', 'JobStarted', 'JobInterrupted', 'JobStarted', 'JobCompleted'],
  )
})
