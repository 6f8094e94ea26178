/**
 * bulk_strategist and autopilot across a process death (issue 26: kill -9 during each job kind). The service
 * runs as a child process (ops/cli.ts serve, all roles) on a database of the test's own, its language model a
 * stand-in on 127.0.0.1 that holds the job mid-way; the process is killed with SIGKILL there. After a restart
 * the killed job ends visibly (the watchdog fails it, or it completes), a second job of the kind completes,
 * and nothing is duplicated: every client's month holds each finding once (bulk_strategist); no item twice,
 * no item with two site edits, one compare report for the month (autopilot). Checked through the RPCs.
 */
import { randomBytes } from 'node:crypto'
import path from 'node:path'
import pg from 'pg'
import t, { type Test } from 'tap'
import { createTestDatabase } from '../../support/database.js'
import { startTestSite } from '../../support/stand-ins/test-site.js'
import { startProviderServer } from '../aeo/provider-server.js'
import { call, randomKey, ROOT, sandbox, type Served, waitUntil } from '../../ops/spawn.js'

const COMMAND = [process.execPath, '--import', 'tsx', path.join(ROOT, 'ops/cli.ts'), 'serve']
const MONTH = new Date().toISOString().slice(0, 7)

/** An OpenAI Responses API answer carrying `text`. */
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

/** The strategist's request (its system prompt names it). */
const isPlan = (body: unknown) => JSON.stringify(body ?? '').includes('You plan the monthly SEO work')
/** The strategist's answer: a description for every key it asked about. */
const planReply = (body: any) => {
  const keys = [...String(body.input).matchAll(/"key":"([^"]+)"/g)].map((m) => m[1]!)
  return reply(JSON.stringify({ items: keys.map((key) => ({ key, description: `Plan for ${key}.` })) }))
}

async function postJob(served: Served, key: string, body: unknown): Promise<number> {
  const response = await fetch(`${served.baseUrl}/api/v1/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  if (response.status !== 202) throw new Error(`POST /api/v1/jobs answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { job_id: number }).job_id
}

/** The job once it has ended (done, failed or cancelled). */
const ended = (served: Served, key: string, jobId: number, label: string) =>
  waitUntil(label, 120_000, async () => {
    const response = await fetch(`${served.baseUrl}/api/v1/jobs/${jobId}`, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(30_000),
    })
    const job = (await response.json()) as any
    return ['done', 'failed', 'cancelled'].includes(job.status) ? job : undefined
  })

/** A fresh database, the service's environment and an organization with its key, on a first server. */
async function setUp(t: Test, providerOrigin: string, extra: Record<string, string> = {}) {
  const database = await createTestDatabase(t)
  const box = await sandbox(t)
  const platformKey = randomKey()
  const env = {
    DATABASE_URL: database.url,
    PLATFORM_KEY: platformKey,
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LANGUAGE_MODEL_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${providerOrigin}/v1`,
    LANGUAGE_MODEL_MODEL: 'gpt-5',
    JOB_HEARTBEAT_SECONDS: '1',
    JOB_STALE_SECONDS: '3',
    ...extra,
  }
  const first = await box.serve(env, { command: COMMAND })
  const orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Acme' }, platformKey)
  const { key } = await call<{ key: string }>(first.baseUrl, 'create_api_key', { name: 'acme', org_id: orgId }, platformKey)
  const pool = new pg.Pool({ connectionString: database.url, max: 1 })
  t.teardown(() => pool.end())
  /** The event data of every event of a type, in log order. */
  const events = async (type: string): Promise<any[]> =>
    (await pool.query<{ data: any }>('select data from es_events where type = $1 order by global_position', [type])).rows.map((r) => r.data)
  return { box, env, first, key, events }
}

/** The killed job ended visibly after the restart: done, or failed by the watchdog. */
function endedVisibly(t: Test, job: any) {
  t.ok(
    job.status === 'done' || (job.status === 'failed' && job.failure_reason === 'watchdog'),
    `the killed job ended visibly: ${job.status} ${job.failure_reason ?? ''}`,
  )
}

/** Each live item's finding or source once in the month: (source kind, source id) never twice for a client. */
function sourcesOnce(t: Test, items: any[], label: string) {
  const sources = items.filter((i) => i.source.id !== null).map((i) => `${i.client_id}:${i.source.kind}:${i.source.id}`)
  t.equal(new Set(sources).size, sources.length, `${label}: no source twice (${sources.join(', ')})`)
  t.equal(new Set(items.map((i) => i.id)).size, items.length, `${label}: no item listed twice`)
}

t.test('bulk_strategist killed after some clients were planned: failed visibly, and the next run adds each finding once', async (t) => {
  const CLIENTS = 4
  const provider = await startProviderServer(t)
  /** Plan requests after the second are held while `hold` is set: the job is killed on the third client. */
  let hold = true
  let plans = 0
  provider.route(async (request) => {
    if (!isPlan(request.body)) return reply('other')
    plans++
    if (hold && plans > 2) return new Promise<never>(() => {})
    return planReply(request.body)
  })
  const { box, env, first, key, events } = await setUp(t, provider.origin)

  const clientIds: number[] = []
  for (let i = 1; i <= CLIENTS; i++) {
    const clientId = await call<number>(
      first.baseUrl,
      'add_client',
      { client: { name: `Plumber ${i}`, website_url: `https://plumber-${i}.example.com` } },
      key,
    )
    clientIds.push(clientId)
    // Two keywords no page serves: two open keyword_without_page findings per client.
    for (const keyword of [`drain cleaning ${i}`, `water heater repair ${i}`])
      await call(first.baseUrl, 'add_keyword', { keyword: { client_id: clientId, keyword } }, key)
    await call(first.baseUrl, 'refresh_seo_insights', { client_id: clientId }, key)
  }
  const group = await call<{ id: number }>(first.baseUrl, 'create_client_group', { name: 'Texas plumbers', client_ids: clientIds }, key)

  const killed = await postJob(first, key, { kind: 'bulk_strategist', group_id: group.id, payload: { month: MONTH } })
  await waitUntil('the third client planning', 60_000, async () => (plans >= 3 ? true : undefined))
  const addedBefore = (await events('ActionItemAdded')).length
  t.equal(addedBefore, 4, 'two clients planned (two findings each) before the kill')
  first.child.kill('SIGKILL')
  t.equal((await first.exited).signal, 'SIGKILL', 'killed')
  hold = false

  const second = await box.serve(env, { command: COMMAND })
  endedVisibly(t, await ended(second, key, killed, 'the killed bulk_strategist to end'))

  const again = await postJob(second, key, { kind: 'bulk_strategist', group_id: group.id, payload: { month: MONTH } })
  const done = await ended(second, key, again, 'the second bulk_strategist')
  t.equal(done.status, 'done', `the second bulk_strategist done ${JSON.stringify(done.error ?? '')}`)
  t.match(done.result, { group_id: group.id, month: MONTH, clients: CLIENTS, succeeded: CLIENTS, failed: [] })

  const added = await events('ActionItemAdded')
  t.equal(added.length, CLIENTS * 2, 'each finding added once across both jobs')
  const keys = added.map((e) => `${e.client_id}:${e.source_key}`)
  t.equal(new Set(keys).size, keys.length, `no source key twice for a client (${keys.join(', ')})`)

  for (const clientId of clientIds) {
    const items = await waitUntil(`client ${clientId}'s items listed`, 30_000, async () => {
      const listed = await call<any[]>(second.baseUrl, 'get_action_items', { client_id: clientId, month: MONTH }, key)
      return listed.length >= 2 ? listed : undefined
    })
    t.equal(items.length, 2, `client ${clientId}: its two findings, once each`)
    t.ok(
      items.every((i) => i.source.kind === 'insight'),
      `client ${clientId}: planned from its findings`,
    )
    sourcesOnce(t, items, `client ${clientId}`)
  }
  const org = await call<any[]>(second.baseUrl, 'list_action_items_for_org_filtered', { month: MONTH }, key)
  t.equal(org.length, CLIENTS * 2, "the organization's month: every client's two items, once")
  sourcesOnce(t, org, 'the organization')
})

for (const step of ['strategist', 'execute_tier_a'] as const)
  t.test(
    `autopilot killed in its ${step} step: ended visibly, and the next run gives no item a second edit and files one report`,
    async (t) => {
      const ITEMS = 8
      /** Killed in the strategist step: its request to the model is held until the kill. */
      let hold = true
      let plans = 0
      const site = await startTestSite()
      t.teardown(() => site.close())
      const provider = await startProviderServer(t)
      provider.route(async (request) => {
        if (request.method !== 'POST' || request.url !== '/v1/responses') return undefined
        if (isPlan(request.body)) {
          plans++
          return step === 'strategist' && hold ? new Promise<never>(() => {}) : planReply(request.body)
        }
        await new Promise((resolve) => setTimeout(resolve, 400)) // slow enough to be killed between items
        return reply(
          JSON.stringify({
            title: 'Pipe Repair in Austin | Crash Plumbing',
            description: 'Pipe repair in Austin, TX by Crash Plumbing: leaks, bursts and replacements. Call to book a visit.',
          }),
        )
      })
      const { box, env, first, key, events } = await setUp(t, provider.origin, {
        SITE_ALLOWED_HOSTS: '127.0.0.1',
        SITE_CRAWL_DELAY_MS: '0',
        SITE_SCAN_POLL_MS: '100',
      })

      const clientId = await call<number>(
        first.baseUrl,
        'add_client',
        { client: { name: 'Crash Plumbing', website_url: `${site.url}/`, locations: ['Austin, TX'] } },
        key,
      )
      await call(first.baseUrl, 'set_client_setting', { client_id: clientId, key: 'autopilot_enabled', value: 'true' }, key)
      await call(first.baseUrl, 'set_client_setting', { client_id: clientId, key: 'auto_apply_site_edits', value: 'true' }, key)
      const itemIds: number[] = []
      for (let i = 1; i <= ITEMS; i++) {
        const url = `${site.url}/services/pipe-${i}`
        const pageId = await call<number>(first.baseUrl, 'add_page', { page: { client_id: clientId, url, title: `Pipe ${i}` } }, key)
        await call(
          first.baseUrl,
          'add_snapshot',
          { snapshot: { page_id: pageId, content: `<html><head><title>Pipe ${i}</title></head><body><p>Pipes.</p></body></html>` } },
          key,
        )
        const item = await call<{ id: number }>(
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
        itemIds.push(item.id)
      }
      const itemOf = (staged: any) => JSON.parse(staged.payload).action_item_id as number
      const stagedForMine = async () => (await events('SiteEditStaged')).filter((e) => itemIds.includes(itemOf(e)))

      const killed = await postJob(first, key, { kind: 'autopilot', client_id: clientId, payload: { month: MONTH } })
      if (step === 'strategist') await waitUntil('the strategist asking the model', 120_000, async () => (plans >= 1 ? true : undefined))
      else
        await waitUntil('edits staged in the execute step', 120_000, async () => ((await stagedForMine()).length >= 3 ? true : undefined))
      first.child.kill('SIGKILL')
      t.equal((await first.exited).signal, 'SIGKILL', 'killed')
      hold = false
      const stagedBefore = (await stagedForMine()).length
      if (step === 'strategist') t.equal(stagedBefore, 0, 'killed before any edit was staged')
      else
        t.ok(stagedBefore > 0 && stagedBefore < ITEMS, `the job was cut off in its execute step (${stagedBefore} of ${ITEMS} items staged)`)
      t.same(await events('CompareReportFiled'), [], 'no report filed before the kill')

      const second = await box.serve(env, { command: COMMAND })
      endedVisibly(t, await ended(second, key, killed, 'the killed autopilot to end'))

      const again = await postJob(second, key, { kind: 'autopilot', client_id: clientId, payload: { month: MONTH } })
      const done = await ended(second, key, again, 'the second autopilot')
      t.equal(done.status, 'done', `the second autopilot done ${JSON.stringify(done.error ?? '')}`)
      t.match(done.result, { client_id: clientId, month: MONTH, report_id: Number })
      t.strictSame(
        done.result.steps.map((s: any) => [s.step, s.status]),
        [
          ['scan', 'skipped'],
          ['strategist', 'done'],
          ['execute_tier_a', 'done'],
          ['compare_report', 'done'],
        ],
        `the second run: the first run's crawl reused (fresh), the rest done (${JSON.stringify(done.result.steps)})`,
      )
      t.equal(
        (await call<any[]>(second.baseUrl, 'list_scan_sessions', { client_id: clientId }, key)).length,
        1,
        'one crawl across both jobs',
      )

      const items = await call<any[]>(second.baseUrl, 'get_action_items', { client_id: clientId, month: MONTH }, key)
      sourcesOnce(t, items, 'the month')
      for (const id of itemIds) t.equal(items.find((i) => i.id === id)?.status, 'done', `item ${id} done`)
      const edits = await call<any[]>(second.baseUrl, 'get_site_edits', { client_id: clientId }, key)
      const perItem = new Map<number, number>()
      for (const edit of edits.filter((e) => e.status !== 'rolled_back')) {
        const itemId = JSON.parse(edit.payload).action_item_id as number
        perItem.set(itemId, (perItem.get(itemId) ?? 0) + 1)
      }
      t.same(
        [...perItem].filter(([, count]) => count > 1),
        [],
        'no item with two site edits',
      )
      t.same(
        itemIds.map((id) => perItem.get(id)),
        itemIds.map(() => 1),
        'each of the items has exactly one edit',
      )
      const applied = (await events('SiteEditApplied')).map((e) => e.edit_id)
      t.equal(new Set(applied).size, applied.length, 'no edit applied twice')

      const reports = (await call<any[]>(second.baseUrl, 'get_compare_reports_for_org', {}, key)).filter(
        (r) => r.client_id === clientId && r.month === MONTH,
      )
      t.equal(reports.length, 1, 'one compare report for the month')
      t.equal(reports[0]?.report_id, done.result.report_id, "the second run's report")
    },
  )
