/**
 * A strategist job across a process death: the service runs as a child process (ops/cli.ts serve, all
 * roles, a language model configured against a local provider stand-in on 127.0.0.1) on a database of the
 * test's own. Last month holds unfinished items and a keyword has no page (an open insight). The job closes
 * last month into this one (the carry-over appends), then asks the model for the descriptions; the stand-in
 * holds that request and the process is killed with SIGKILL there. After a restart the watchdog fails the job
 * visibly, and a new strategist job completes: last month's items carried once, the finding's item added
 * once, and a third run adds nothing.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { createTestDatabase } from '../../support/database.js'
import { startProviderServer } from '../aeo/provider-server.js'
import { call, randomKey, ROOT, sandbox, waitUntil, type Served } from '../../ops/spawn.js'

const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'ops/cli.ts'), 'serve']

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

t.test('a strategist killed mid-run: failed by the watchdog, and the next run carries each item once', async (t) => {
  const database = await createTestDatabase(t)
  const box = await sandbox(t)
  const platformKey = randomKey()
  const provider = await startProviderServer(t)
  /** The strategist's request (its system prompt); held while `hold` is set, else answered with a description per key. */
  let hold = true
  const isPlan = (body: unknown) => JSON.stringify(body ?? '').includes('You plan the monthly SEO work')
  const reply = (text: string) => ({
    body: {
      id: 'resp_1',
      object: 'response',
      created_at: 1763781240,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'gpt-5-2025-08-07',
      output: [
        { id: 'msg_1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text }] },
      ],
      usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 },
    },
  })
  provider.route(async (request) => {
    if (!isPlan(request.body)) return reply('other')
    if (hold) return new Promise<never>(() => {})
    const keys = [...String(request.body.input).matchAll(/"key":"([^"]+)"/g)].map((m) => m[1]!)
    return reply(JSON.stringify({ items: keys.map((key) => ({ key, description: `Plan for ${key}.` })) }))
  })
  const env = {
    DATABASE_URL: database.url,
    PLATFORM_KEY: platformKey,
    JOB_HEARTBEAT_SECONDS: '1',
    JOB_STALE_SECONDS: '3',
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LANGUAGE_MODEL_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${provider.origin}/v1`,
    LANGUAGE_MODEL_MODEL: 'gpt-5',
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

  const now = new Date()
  const month = now.toISOString().slice(0, 7)
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
  for (const description of ['Fix the contact form', 'Add reviews to the home page', 'Write the FAQ'])
    await call(first.baseUrl, 'add_action_item', { client_id: clientId, month: lastMonth, action_type: 'manual', description }, key)

  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  t.teardown(() => pool.end())
  const events = async (stream: string) =>
    (
      await pool.query<{ type: string; data: any }>('select type, data from es_events where stream_name = $1 order by stream_revision', [
        stream,
      ])
    ).rows
  const carriedIn = async () => (await events(`action_items-${clientId}-${month}`)).filter((e) => e.type === 'ActionItemAdded')

  // A keyword no page serves: an open keyword_without_page insight.
  await call(first.baseUrl, 'add_keyword', { keyword: { client_id: clientId, keyword: 'tankless water heater austin' } }, key)
  await call(first.baseUrl, 'refresh_seo_insights', { client_id: clientId }, key)

  const created = await http(first, key, 'POST', '/api/v1/jobs', { kind: 'strategist', client_id: clientId, payload: { month } })
  t.equal(created.status, 202, JSON.stringify(created.body))
  const killed = created.body.job_id as number
  await waitUntil('the model asked', 60_000, async () => (provider.requests.some((r) => isPlan(r.body)) ? true : undefined))
  t.equal((await carriedIn()).length, 3, 'the carry-over was appended before')
  t.equal((await jobOf(first, key, killed)).status, 'running', 'the job is still running (waiting on the model)')

  first.child.kill('SIGKILL')
  t.equal((await first.exited).signal, 'SIGKILL')
  hold = false

  const second = await box.serve(env, { command: COMMAND })
  const failed = await waitUntil('the watchdog', 60_000, async () => {
    const job = await jobOf(second, key, killed)
    return job.status === 'failed' ? job : undefined
  })
  t.equal(failed.failure_reason, 'watchdog', 'failed visibly')

  const again = await http(second, key, 'POST', '/api/v1/jobs', { kind: 'strategist', client_id: clientId, payload: { month } })
  t.equal(again.status, 202, JSON.stringify(again.body))
  const done = await waitUntil('the second strategist', 60_000, async () => {
    const job = await jobOf(second, key, again.body.job_id)
    return job.status === 'done' || job.status === 'failed' ? job : undefined
  })
  t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))
  t.match(done.result, { month, closed_months: [], carried_over: 3, added: 1, writer: 'openai:gpt-5', writer_fallback: null })
  t.match(done.result.added_items, [{ action_type: 'create_page', source_key: /^insight:\d+$/ }])

  const added = await carriedIn()
  t.equal(added.length, 4, 'each unfinished item carried once, the finding added once')
  t.equal(new Set(added.map((e) => e.data.source_key)).size, 4)
  t.equal(added.filter((e) => e.data.source.kind === 'carry_over').length, 3)
  const closes = (await events(`action_items-${clientId}-${lastMonth}`)).filter((e) => e.type === 'ActionItemMonthClosed')
  t.equal(closes.length, 1, 'last month closed once')
  const listed = await call<any[]>(second.baseUrl, 'get_action_items', { client_id: clientId, month }, key)
  t.equal(listed.length, 4, 'get_action_items shows the four, once')
  t.match(
    listed.find((i) => i.action_type === 'create_page'),
    { description: /^Plan for insight:\d+\.$/ },
  )

  const third = await http(second, key, 'POST', '/api/v1/jobs', { kind: 'strategist', client_id: clientId, payload: { month } })
  const rerun = await waitUntil('the third strategist', 60_000, async () => {
    const job = await jobOf(second, key, third.body.job_id)
    return job.status === 'done' || job.status === 'failed' ? job : undefined
  })
  t.match(rerun, { status: 'done', result: { added: 0, existing: 1, carried_over: 3 } })
  t.equal((await carriedIn()).length, 4, 'a third run adds nothing')
})
