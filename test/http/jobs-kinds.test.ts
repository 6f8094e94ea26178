/**
 * Each production job kind driven through HTTP from creation to done: POST
 * /api/v1/jobs with the kind's payload, the processors role's runner picks it up, GET /api/v1/jobs/<id>
 * until done, then the result is checked against what the kind's RPCs show. The handlers are the real ones
 * (processors/jobs/kinds), with the built-in writers; one run goes through a language model configured as
 * `serve` configures it (LANGUAGE_MODEL_PROVIDER → createLanguageModel), answering from a local server.
 * export_org has its own end-to-end test (exports.test.ts).
 */
import t, { type Test } from 'tap'
import { loadConfig } from '../../ops/config.js'
import { createLanguageModel } from '../../processors/language-model/index.js'
import { startProviderServer } from '../processors/aeo/provider-server.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, orgWithKey, streamEvents } from './helpers.js'
import { getJob, postJob, QUICK_JOBS, waitForJob } from './jobs-helpers.js'

async function world(ts: TestSystem) {
  const org = await orgWithKey(ts, 'Acme Agency')
  const clientId = await ts.call<number>(
    'add_client',
    clientPayload('Acme Plumbing', { services: ['Drain cleaning', 'Water heaters'], locations: ['Austin, TX'] }),
    org.key,
  )
  return { org, clientId }
}

/** POSTs the job, expects 202, and waits for it to end; returns the finished record. */
async function runJob(t: Test, ts: TestSystem, key: string, body: Record<string, unknown>) {
  const created = await postJob(ts.app, key, body)
  t.equal(created.statusCode, 202, `${body.kind}: 202 (${created.body})`)
  const { job_id: jobId, status_url: statusUrl } = created.json()
  t.equal(statusUrl, `/api/v1/jobs/${jobId}`)
  const finished = await waitForJob(ts.app, key, jobId, (job) => ['done', 'failed', 'cancelled'].includes(job.status), 60_000)
  t.equal(finished.status, 'done', `${body.kind} ends done: ${JSON.stringify(finished.error ?? '')}`)
  const events = (await streamEvents(ts, `job-${jobId}`)).map((e) => e.type).filter((type) => type !== 'JobProgressed')
  t.same(events, ['JobRequested', 'JobStarted', 'JobCompleted'], `${body.kind}: every transition is an event`)
  return finished
}

t.test('ad_copy, keyword_generation and prompted_edit run from POST to done with the built-in writers', async (t) => {
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS })
  const { org, clientId } = await world(ts)

  // ad_copy: a proposed set of service × area groups, approvable.
  const adCopy = await runJob(t, ts, org.key, {
    kind: 'ad_copy',
    client_id: clientId,
    payload: { services: ['Drain cleaning'], areas: ['Austin, TX', 'Round Rock, TX'] },
  })
  t.match(adCopy.result, { client_id: clientId, status: 'proposed', ad_group_count: 2, writer: 'built-in' })
  const set = await ts.call('get_ad_copy_set', { set_id: adCopy.result.set_id, client_id: clientId }, org.key)
  t.same(
    set.ad_groups.map((g: { name: string }) => g.name),
    ['Drain cleaning – Austin, TX', 'Drain cleaning – Round Rock, TX'],
  )
  for (const group of set.ad_groups as { headlines: string[]; descriptions: string[] }[]) {
    t.ok(group.headlines.length > 0 && group.headlines.every((h) => h.length <= 30), 'headlines within 30 characters')
    t.ok(group.descriptions.length > 0 && group.descriptions.every((d) => d.length <= 90), 'descriptions within 90 characters')
  }
  t.match(await ts.call('approve_ad_copy_set', { set_id: set.set_id, client_id: clientId, approved_by: 'Dana' }, org.key), {
    status: 'approved',
    approved_by: 'Dana',
  })

  // keyword_generation: candidates from services × locations, added as keywords.
  const keywords = await runJob(t, ts, org.key, { kind: 'keyword_generation', client_id: clientId })
  t.match(keywords.result, { client_id: clientId, existing: 0, writer: 'built-in' })
  t.ok(keywords.result.added > 0, `${keywords.result.added} keywords added`)
  const listed = await ts.call<{ id: number; keyword: string }[]>('get_keywords_for_client', { client_id: clientId, limit: 500 }, org.key)
  t.same(
    listed.map((k) => k.id).sort((a, b) => a - b),
    [...keywords.result.keyword_ids].sort((a: number, b: number) => a - b),
    'the result names the keywords listed',
  )
  t.ok(
    listed.some((k) => k.keyword === 'drain cleaning austin'),
    'service × location',
  )

  // prompted_edit: one staged elementor_rewrite per page, applied through the site edit RPCs.
  const pageId = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acme-plumbing.example.com/', wp_post_id: 7 } },
    org.key,
  )
  await ts.call('add_snapshot', { snapshot: { page_id: pageId, content: '<p>Call 555-0100 today.</p>' } }, org.key)
  const edit = await runJob(t, ts, org.key, {
    kind: 'prompted_edit',
    client_id: clientId,
    payload: { instruction: 'replace 555-0100 with 555-0199', pages: [7] },
  })
  t.match(edit.result, {
    staged: 1,
    pages: [{ page_id: pageId, status: 'staged', writer: 'built-in', proposed_content: '<p>Call 555-0199 today.</p>' }],
  })
  const editId = edit.result.pages[0].edit_id
  t.match(await ts.call('get_site_edit', { edit_id: editId }, org.key), {
    operation: 'elementor_rewrite',
    status: 'proposed',
    job_id: edit.job_id,
  })
  await ts.call('apply_site_edit', { edit_id: editId, approved_by: 'Dana' }, org.key)
  t.equal(
    (await ts.call<{ content: string }>('get_latest_snapshot', { page_id: pageId }, org.key)).content,
    '<p>Call 555-0199 today.</p>',
    'applied: the page shows it',
  )

  // A dry run stages nothing.
  const dry = await runJob(t, ts, org.key, {
    kind: 'prompted_edit',
    client_id: clientId,
    payload: { instruction: 'add "Licensed and insured."', dry_run: true },
  })
  t.match(dry.result, { dry_run: true, staged: 0, pages: [{ page_id: pageId, status: 'proposed', edit_id: null }] })
  t.equal(await ts.call('count_pending_site_edits', { client_id: clientId }, org.key), 0)

  // A job whose work fails is failed with its error, never left running.
  const created = await postJob(ts.app, org.key, {
    kind: 'prompted_edit',
    client_id: clientId,
    payload: { instruction: 'replace a with b', pages: ['no-such-page'] },
  })
  const failed = await waitForJob(
    ts.app,
    org.key,
    created.json().job_id,
    (job) => job.status !== 'queued' && job.status !== 'running',
    60_000,
  )
  t.match(failed, { status: 'failed', error: /no-such-page/ })
  t.equal((await getJob(ts.app, org.key, created.json().job_id)).statusCode, 200)
})

t.test('LANGUAGE_MODEL_PROVIDER=openai: the job writes through the provider (a local server on 127.0.0.1)', async (t) => {
  const server = await startProviderServer(t)
  const answer = {
    id: 'resp_1',
    object: 'response',
    created_at: 1763781240,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model: 'gpt-5-2025-08-07',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], text: '<p>Friendly, licensed plumbers: call 555-0100.</p>' }],
      },
    ],
    usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 },
  }
  // The edit's request, by its instruction: with a model configured, the page intent classifier asks it too
  // (about the page added below), and that is not the request this test scripts.
  const isEdit = (r: { method: string; url: string; body: any }) =>
    r.method === 'POST' && r.url === '/v1/responses' && /Instruction: /.test(JSON.stringify(r.body?.input ?? ''))
  server.enqueue(isEdit, { body: answer })
  const config = loadConfig({
    LANGUAGE_MODEL_PROVIDER: 'openai',
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: `${server.origin}/v1`,
    LANGUAGE_MODEL_MODEL: 'gpt-5',
  })
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, languageModel: createLanguageModel(config.languageModel) })
  const { org, clientId } = await world(ts)
  const pageId = await ts.call<number>('add_page', { page: { client_id: clientId, url: 'https://acme-plumbing.example.com/' } }, org.key)
  await ts.call('add_snapshot', { snapshot: { page_id: pageId, content: '<p>Call 555-0100 today.</p>' } }, org.key)

  const done = await runJob(t, ts, org.key, { kind: 'prompted_edit', client_id: clientId, payload: { instruction: 'sound friendlier' } })
  t.match(done.result.pages, [
    { page_id: pageId, status: 'staged', writer: 'openai:gpt-5', proposed_content: '<p>Friendly, licensed plumbers: call 555-0100.</p>' },
  ])
  const edits = server.requests.filter(isEdit)
  t.equal(edits.length, 1, 'one completion asked for the edit')
  t.equal(edits[0]!.headers.authorization, 'Bearer sk-test', 'with the configured key')
  t.match(edits[0]!.body.input, /Instruction: sound friendlier/)
})
