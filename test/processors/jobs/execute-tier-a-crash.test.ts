/**
 * execute_tier_a and fulfill_selected across a process death: the service runs as a child process
 * (ops/cli.ts serve, all roles) on a database of the test's own, its language model a slowed-down stand-in on
 * 127.0.0.1, so the job is in the middle of a client's twelve items when it is killed with SIGKILL. After a
 * restart the job ends visibly (the watchdog fails it, or it completes), and a second job of the kind finishes
 * the month: every item done, each with exactly one site edit staged and applied once (an edit staged just
 * before the kill is reused; an item killed between its apply and its status is finished).
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { createTestDatabase } from '../../support/database.js'
import { startProviderServer } from '../aeo/provider-server.js'
import { call, randomKey, ROOT, sandbox, waitUntil } from '../../ops/spawn.js'

const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'ops/cli.ts'), 'serve']
const ITEMS = 12
const MONTH = '2026-11'

/** An OpenAI Responses API answer carrying `text`. */
const answer = (text: string) => ({
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
})

async function job(baseUrl: string, key: string, body: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}/api/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (response.status !== 202) throw new Error(`POST /api/v1/jobs answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { job_id: number }).job_id
}

async function jobRecord(baseUrl: string, key: string, jobId: number): Promise<any> {
  const response = await fetch(`${baseUrl}/api/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } })
  return response.json()
}

for (const kind of ['execute_tier_a', 'fulfill_selected'] as const)
  t.test(`${kind}: a job killed mid-month ends visibly after a restart, and no item gets a second edit`, async (t) => {
    const database = await createTestDatabase(t)
    const box = await sandbox(t)
    const model = await startProviderServer(t)
    model.route(async (r) => {
      if (r.method !== 'POST' || r.url !== '/v1/responses') return undefined
      await new Promise((resolve) => setTimeout(resolve, 400)) // slow enough to be killed between items
      return {
        body: answer(
          JSON.stringify({
            title: 'Pipe Repair in Austin | Crash Plumbing',
            description: 'Pipe repair in Austin, TX by Crash Plumbing: leaks, bursts and replacements. Call to book a visit.',
          }),
        ),
      }
    })
    const platformKey = randomKey()
    const env = {
      DATABASE_URL: database.url,
      PLATFORM_KEY: platformKey,
      SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LANGUAGE_MODEL_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${model.origin}/v1`,
      JOB_HEARTBEAT_SECONDS: '1',
      JOB_STALE_SECONDS: '3',
    }
    const first = await box.serve(env, { command: COMMAND })
    const orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Acme' }, platformKey)
    const { key } = await call<{ key: string }>(first.baseUrl, 'create_api_key', { name: 'acme', org_id: orgId }, platformKey)
    const base = 'https://crash-plumbing.example.com'
    const clientId = await call<number>(
      first.baseUrl,
      'add_client',
      { client: { name: 'Crash Plumbing', website_url: base, locations: ['Austin, TX'] } },
      key,
    )
    await call(first.baseUrl, 'set_client_setting', { client_id: clientId, key: 'auto_apply_site_edits', value: 'true' }, key)
    const itemIds: number[] = []
    for (let i = 1; i <= ITEMS; i++) {
      const url = `${base}/services/pipe-${i}`
      const pageId = await call<number>(first.baseUrl, 'add_page', { page: { client_id: clientId, url, title: `Pipe ${i}` } }, key)
      await call(
        first.baseUrl,
        'add_snapshot',
        { snapshot: { page_id: pageId, content: `<html><head><title>Pipe ${i}</title></head><body><p>Pipes.</p></body></html>` } },
        key,
      )
      const added = await call<{ id: number }>(
        first.baseUrl,
        'add_action_item',
        {
          client_id: clientId,
          month: MONTH,
          action_type: 'title_meta_rewrite',
          page_url: url,
          description: `Rewrite the title of pipe ${i} for "pipe repair austin"`,
        },
        key,
      )
      itemIds.push(added.id)
    }

    const pool = new pg.Pool({ connectionString: database.url, max: 1 })
    t.teardown(() => pool.end())
    /** The event data of every event of a type, in log order. */
    const events = async (type: string): Promise<any[]> =>
      (await pool.query<{ data: any }>('select data from es_events where type = $1 order by global_position', [type])).rows.map(
        (r) => r.data,
      )
    const itemOf = (staged: any) => JSON.parse(staged.payload).action_item_id as number

    const payload = kind === 'execute_tier_a' ? { month: MONTH } : { action_item_ids: itemIds }
    const firstJob = await job(first.baseUrl, key, { kind, client_id: clientId, payload })
    await waitUntil('edits staged mid-job', 60_000, async () => ((await events('SiteEditStaged')).length >= 3 ? true : undefined))
    first.child.kill('SIGKILL')
    t.equal((await first.exited).signal, 'SIGKILL')
    const stagedBefore = (await events('SiteEditStaged')).length
    t.ok(stagedBefore < ITEMS, `the job was cut off (${stagedBefore} of ${ITEMS} items staged)`)

    const second = await box.serve(env, { command: COMMAND })
    const ended = await waitUntil('the killed job to end', 60_000, async () => {
      const record = await jobRecord(second.baseUrl, key, firstJob)
      return ['done', 'failed', 'cancelled'].includes(record.status) ? record : undefined
    })
    t.ok(
      ended.status === 'done' || (ended.status === 'failed' && ended.failure_reason === 'watchdog'),
      `the killed job ended visibly: ${ended.status} ${ended.failure_reason ?? ''}`,
    )

    const secondJob = await job(second.baseUrl, key, { kind, client_id: clientId, payload })
    const done = await waitUntil('the second job', 60_000, async () => {
      const record = await jobRecord(second.baseUrl, key, secondJob)
      return ['done', 'failed', 'cancelled'].includes(record.status) ? record : undefined
    })
    t.equal(done.status, 'done', JSON.stringify(done.error ?? ''))

    const staged = await events('SiteEditStaged')
    t.same(
      staged.map(itemOf).sort((a, b) => a - b),
      [...itemIds].sort((a, b) => a - b),
      'exactly one edit per item across both jobs',
    )
    const applied = (await events('SiteEditApplied')).map((e) => e.edit_id)
    t.equal(new Set(applied).size, applied.length, 'no edit applied twice')
    t.same(
      [...applied].sort((a, b) => a - b),
      staged.map((e) => e.edit_id).sort((a: number, b: number) => a - b),
      'every edit applied',
    )
    const last = new Map<number, string>()
    for (const change of await events('ActionItemStatusChanged')) last.set(change.item_id, change.status)
    t.same(
      itemIds.map((id) => last.get(id)),
      itemIds.map(() => 'done'),
      'every item done',
    )
  })
