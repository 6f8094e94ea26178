/**
 * The prompted_edit handler against the real service (commands, read models), called with the job context
 * the job runner gives it: targets by wp_post_id, slug and URL, staged edits with elementor_rewrite payloads,
 * dry_run staging nothing, an unknown page failing the job by name, a resumed attempt reusing its edits,
 * and the language-model path through the OpenAI adapter against a local server on 127.0.0.1.
 */
import pino from 'pino'
import t, { type Test } from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import type { JobPayload } from '../../domain/jobs/kinds.js'
import type { JobContext } from '../../processors/jobs/handler.js'
import { sitePublisher } from '../../processors/site-edits/site-publisher.js'
import { promptedEdit } from '../../processors/jobs/kinds/prompted-edit.js'
import { createOpenAiLanguageModel } from '../../processors/language-model/openai.js'
import type { LanguageModel } from '../../processors/language-model/port.js'
import { clientPayload, orgWithKey } from '../http/helpers.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { startProviderServer } from './aeo/provider-server.js'
import { readModelsAt } from '../support/read-models.js'

async function setup(t: Test) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const add = async (url: string, content: string | null, extra: Record<string, unknown> = {}) => {
    const id = await ts.call<number>('add_page', { page: { client_id: clientId, url, ...extra } }, org.key)
    if (content !== null) await ts.call('add_snapshot', { snapshot: { page_id: id, content } }, org.key)
    return id
  }
  const home = await add('https://acme.example.com/', '<p>Call 555-0100 today.</p>', { wp_post_id: 2 })
  const drains = await add('https://acme.example.com/services/drains', '<p>Drains cleared. Call 555-0100.</p>')
  const empty = await add('https://acme.example.com/new', null)
  return { ts, org, clientId, home, drains, empty }
}

function context(
  ts: TestSystem,
  job: { jobId: number; orgId: number; clientId: number; payload: JobPayload<'prompted_edit'>; attempt?: number },
  languageModel: LanguageModel | null = null,
) {
  const progress: [number, number, string | undefined][] = []
  const ctx: JobContext<'prompted_edit'> = {
    job: {
      jobId: job.jobId,
      kind: 'prompted_edit',
      orgId: job.orgId,
      clientId: job.clientId,
      groupId: null,
      payload: job.payload,
      attempt: job.attempt ?? 1,
    },
    store: ts.system.store,
    write: ts.system.write,
    command: systemContext(`job-${job.jobId}`),
    read: ts.system.read,
    db: ts.system.database.db,
    blobs: new PostgresBlobStore(ts.system.database.db, ts.system.write.clock),
    languageModel,
    sitePublisher: sitePublisher({ read: ts.system.read, sites: null }),
    sites: null,
    log: pino({ level: 'silent' }),
    clock: ts.system.write.clock,
    signal: new AbortController().signal,
    async progress(done, total, message) {
      progress.push([done, total, message])
    },
    cancelRequested: async () => false,
    async settle(position) {
      await readModelsAt(ts, position)
    },
  }
  return { ctx, progress }
}

t.test('stages one elementor_rewrite edit per changed page, by wp_post_id, slug and URL', async (t) => {
  const { ts, org, clientId, home, drains, empty } = await setup(t)
  const { ctx, progress } = context(ts, {
    jobId: 501,
    orgId: org.orgId,
    clientId,
    payload: { instruction: 'replace 555-0100 with 555-0199', pages: [2, 'drains', 'https://acme.example.com/new'] },
  })
  const result = (await promptedEdit(ctx)) as any
  t.equal(result.staged, 2)
  t.same(
    result.pages.map((p: any) => [p.page_id, p.status]),
    [
      [home, 'staged'],
      [drains, 'staged'],
      [empty, 'skipped'],
    ],
  )
  t.same(progress.at(-1), [3, 3, 'done'], 'progress per page, then done')

  const edit = await ts.call<any>('get_site_edit', { edit_id: result.pages[0].edit_id }, org.key)
  t.match(edit, {
    operation: 'elementor_rewrite',
    page_id: home,
    page_url: 'https://acme.example.com/',
    job_id: 501,
    status: 'proposed',
    staged_by: 'system:job-501',
  })
  const payload = JSON.parse(edit.payload)
  t.match(payload, {
    instruction: 'replace 555-0100 with 555-0199',
    page_id: home,
    wp_post_id: 2,
    proposed_content: '<p>Call 555-0199 today.</p>',
    writer: 'built-in',
  })
  t.match(payload.before_excerpt, /555-0100/)

  // Applying the staged edit publishes the proposal.
  await ts.call('apply_site_edit', { edit_id: edit.edit_id, approved_by: 'Dana' }, org.key)
  t.equal((await ts.call<any>('get_latest_snapshot', { page_id: home }, org.key)).content, '<p>Call 555-0199 today.</p>')

  // A resumed attempt of the same job reuses its edits.
  const again = (await promptedEdit(
    context(ts, { jobId: 501, orgId: org.orgId, clientId, attempt: 2, payload: ctx.job.payload }).ctx,
  )) as any
  t.same(
    again.pages.map((p: any) => p.edit_id),
    result.pages.map((p: any) => p.edit_id),
    'the same edit ids',
  )
  t.equal((await ts.call<any[]>('get_site_edits', { client_id: clientId }, org.key)).length, 2, 'nothing staged twice')
})

t.test('dry_run stages nothing and returns the proposals; default targets are the active pages', async (t) => {
  const { ts, org, clientId, home, drains } = await setup(t)
  const { ctx } = context(ts, {
    jobId: 502,
    orgId: org.orgId,
    clientId,
    payload: { instruction: 'add "Licensed and insured."', dry_run: true },
  })
  const result = (await promptedEdit(ctx)) as any
  t.equal(result.dry_run, true)
  t.equal(result.staged, 0)
  t.same(
    result.pages.filter((p: any) => p.status === 'proposed').map((p: any) => [p.page_id, p.edit_id]),
    [
      [home, null],
      [drains, null],
    ],
  )
  t.equal(result.pages[0].proposed_content, '<p>Call 555-0100 today.</p>\n<p>Licensed and insured.</p>')
  t.equal(await ts.call('count_pending_site_edits', { client_id: clientId }, org.key), 0, 'nothing staged')
})

t.test(
  'an unknown page fails the job naming it, before anything is staged; an instruction the writer cannot apply stages nothing',
  async (t) => {
    const { ts, org, clientId } = await setup(t)
    const { ctx } = context(ts, {
      jobId: 503,
      orgId: org.orgId,
      clientId,
      payload: { instruction: 'replace a with b', pages: [2, 'no-such-page', 99] },
    })
    await t.rejects(promptedEdit(ctx), /unknown pages for client \d+: "no-such-page", 99/)
    const vague = (await promptedEdit(
      context(ts, { jobId: 504, orgId: org.orgId, clientId, payload: { instruction: 'make it friendlier', pages: [2] } }).ctx,
    )) as any
    t.match(vague.pages[0], { status: 'unchanged', edit_id: null })
    t.match(vague.pages[0].summary, /not understood by the built-in writer/)
    t.equal(await ts.call('count_pending_site_edits', { client_id: clientId }, org.key), 0)
  },
)

t.test('with a language model: the OpenAI adapter writes the proposal (local server on 127.0.0.1)', async (t) => {
  const { ts, org, clientId, home } = await setup(t)
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
        content: [{ type: 'output_text', annotations: [], text: '<p>Call 555-0100 today: friendly, licensed plumbers.</p>' }],
      },
    ],
    usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 },
  }
  server.enqueue((r) => r.method === 'POST' && r.url === '/v1/responses', { body: answer })
  const model = createOpenAiLanguageModel({ apiKey: 'sk-test', baseUrl: `${server.origin}/v1`, model: 'gpt-5' })
  const result = (await promptedEdit(
    context(ts, { jobId: 505, orgId: org.orgId, clientId, payload: { instruction: 'sound friendlier', pages: [2] } }, model).ctx,
  )) as any
  t.match(result.pages[0], {
    page_id: home,
    status: 'staged',
    writer: 'openai:gpt-5',
    proposed_content: '<p>Call 555-0100 today: friendly, licensed plumbers.</p>',
  })
  const request = server.requests[0]!
  t.equal(request.body.model, 'gpt-5')
  t.match(request.body.instructions, /complete new page content only/)
  t.match(request.body.input, /Instruction: sound friendlier[\s\S]*<p>Call 555-0100 today\.<\/p>/)
})
