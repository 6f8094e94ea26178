/**
 * The AI Visibility workflow of the spec, start to finish, through HTTP against the
 * real service (`ops/cli.ts serve`, role all, on its own embedded PostgreSQL): client → questions →
 * cadence → enqueue → claims by the built-in server agent (answering through the OpenAI SDK against a local
 * server that speaks the Responses API) and by an operator agent → captures → summary → items → status
 * change → report filed and downloaded; then `ops replay --org` shows every step as events.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { call, rpc, sandbox, waitUntil } from './spawn.js'

interface ProviderRequest {
  readonly path: string
  readonly body: any
}

/** A local stand-in for the OpenAI Responses API: a grounded answer that names and cites the client. */
async function startOpenAiServer(t: { teardown(fn: () => unknown): void }): Promise<{ baseUrl: string; requests: ProviderRequest[] }> {
  const requests: ProviderRequest[] = []
  const server = http.createServer((request, response) => {
    let raw = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (raw += chunk))
    request.on('end', () => {
      const body = raw ? JSON.parse(raw) : null
      requests.push({ path: request.url ?? '', body })
      const prompt = typeof body?.input === 'string' ? body.input : JSON.stringify(body?.input ?? '')
      const text =
        `For "${prompt.slice(0, 60)}", these are well reviewed:\n\n` +
        '1. **Rapid Rooter Plumbing**: fast emergency response.\n' +
        '2. **Austin Pipe Pros**: licensed and insured, upfront pricing.\n' +
        '3. **Lone Star Plumbing Co.**: good reviews on Yelp.\n'
      const citeAt = text.indexOf('Rapid Rooter')
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${requests.length}` })
      response.end(
        JSON.stringify({
          id: `resp_${requests.length}`,
          object: 'response',
          created_at: Math.floor(Date.now() / 1000),
          status: 'completed',
          model: 'gpt-5-2025-08-07',
          output: [
            {
              type: 'web_search_call',
              id: `ws_${requests.length}`,
              status: 'completed',
              action: { type: 'search', query: prompt.slice(0, 60) },
            },
            {
              type: 'message',
              id: `msg_${requests.length}`,
              status: 'completed',
              role: 'assistant',
              content: [
                {
                  type: 'output_text',
                  text,
                  annotations: [
                    {
                      type: 'url_citation',
                      start_index: citeAt,
                      end_index: citeAt + 12,
                      url: 'https://www.yelp.com/biz/rapid-rooter-austin',
                      title: 'Rapid Rooter - Yelp',
                    },
                    {
                      type: 'url_citation',
                      start_index: 0,
                      end_index: 10,
                      url: 'https://rapidrooter.example/emergency',
                      title: 'Rapid Rooter',
                    },
                  ],
                },
              ],
            },
          ],
          usage: { input_tokens: 20, output_tokens: 80, total_tokens: 100 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests }
}

t.test('the AI Visibility workflow, end to end over HTTP, and its history in replay', async (t) => {
  const openai = await startOpenAiServer(t)
  const box = await sandbox(t)
  const served = await box.serve({
    OPENAI_API_KEY: 'sk-local-test',
    OPENAI_BASE_URL: openai.baseUrl,
    AEO_AGENT_POLL_MS: '100',
  })
  const url = served.baseUrl
  const platform = served.mintedKey!
  t.ok(platform, 'a platform key was minted')

  // 1. The agency, its key, and the client with services and locations.
  const orgId = await call<number>(url, 'create_organization', { name: 'Workflow Agency' }, platform)
  const { key } = await call<{ key: string }>(url, 'create_api_key', { org_id: orgId, name: 'agency', scopes: 'read,write' }, platform)
  const clientId = await call<number>(
    url,
    'add_client',
    {
      client: {
        name: 'Rapid Rooter Plumbing',
        website_url: 'https://rapidrooter.example',
        services: ['Emergency plumbing', 'Water heater repair'],
        locations: ['Austin, TX', 'Round Rock, TX'],
      },
    },
    key,
  )

  // 2. Questions: generated, reviewed, all but two switched off (a small, exact run count below).
  const generated = await call<{ added: number; total: number }>(url, 'generate_aeo_questions', { client_id: clientId }, key)
  t.ok(generated.added >= 8, `questions were generated (${generated.added})`)
  const again = await call<{ added: number }>(url, 'generate_aeo_questions', { client_id: clientId }, key)
  t.equal(again.added, 0, 'generating again adds nothing')
  const queries = await call<{ id: number; prompt: string; active: boolean }[]>(url, 'get_aeo_queries', { client_id: clientId }, key)
  t.equal(queries.length, generated.total, 'get_aeo_queries lists the set')
  const kept = queries.slice(0, 2)
  for (const query of queries.slice(2)) await call(url, 'update_aeo_query', { query_id: query.id, active: false }, key)

  // 3. Cadence and enqueue: 2 questions × 2 engines, one sample a month.
  await call(url, 'set_aeo_cadence', { client_id: clientId, samples_per_month: 1, engines: ['openai', 'chatgpt-web'] }, key)
  t.match(await call(url, 'get_aeo_cadence', { client_id: clientId }, key), {
    enabled: true,
    samples_per_month: 1,
    engines: ['openai', 'chatgpt-web'],
  })
  const queued = await call<number | { queued: number }>(url, 'enqueue_due_aeo_runs', { client_id: clientId }, key)
  t.equal(typeof queued === 'number' ? queued : queued.queued, 4, 'four runs queued')

  // 4. The server agent answers the openai runs through the SDK against the local server.
  const stats = await waitUntil('the server agent finishes the openai runs', 60_000, async () => {
    const runs = await call<{ engine: string; status: string }[]>(url, 'get_aeo_runs', { client_id: clientId }, key)
    const openaiRuns = runs.filter((r) => r.engine === 'openai')
    return openaiRuns.length === 2 && openaiRuns.every((r) => r.status === 'done') ? runs : undefined
  })
  t.equal(stats.filter((r) => r.engine === 'chatgpt-web' && r.status === 'queued').length, 2, 'chatgpt-web runs wait for an operator agent')
  t.equal(openai.requests.length, 2, 'the provider was asked once per openai run')
  for (const request of openai.requests) {
    t.equal(request.path, '/v1/responses', 'the Responses API')
    t.ok(JSON.stringify(request.body.tools ?? []).includes('web_search'), 'with web search enabled')
    t.ok(
      kept.some((q) => JSON.stringify(request.body.input).includes(q.prompt)),
      'asking one of the active questions',
    )
  }

  // 5. An operator agent claims the chatgpt-web runs, captures answers and completes them.
  const capabilities = JSON.stringify({ engines: ['chatgpt-web'], geo: 'any', max_per_day: 50 })
  const claimed = await call<{ id: number; query_id: number; client_id: number; engine: string; prompt: string; client_name: string }[]>(
    url,
    'claim_aeo_runs',
    { agent_id: 'operator-laptop-1', capabilities_json: capabilities, limit: 5 },
    key,
  )
  t.equal(claimed.length, 2, 'both chatgpt-web runs are claimed')
  t.same(new Set(claimed.map((r) => r.engine)), new Set(['chatgpt-web']))
  t.equal(claimed[0]!.client_name, 'Rapid Rooter Plumbing', 'a claimed run carries the client name')
  t.ok(
    kept.some((q) => q.prompt === claimed[0]!.prompt),
    'and the prompt',
  )
  t.same(
    await call(url, 'claim_aeo_runs', { agent_id: 'operator-laptop-2', capabilities_json: capabilities }, key),
    [],
    'nothing left to claim',
  )
  for (const run of claimed) {
    const captureId = await call<number>(
      url,
      'ingest_aeo_capture',
      {
        client_id: clientId,
        query_id: run.query_id,
        engine: 'chatgpt-web',
        run_id: run.id,
        answer_text:
          'Here are some options:\n\n1. **Austin Pipe Pros**: upfront pricing.\n2. **Rapid Rooter Plumbing**: 24/7 emergency service, see rapidrooter.example.\n3. **Lone Star Plumbing Co.**\n',
        citations: [{ url: 'https://www.yelp.com/search?find_desc=plumber', title: 'Yelp' }, { url: 'https://austinpipepros.example/' }],
        record_json: { source: 'operator device', html_bytes: 12345 },
        model: 'gpt-5-web',
        surface: 'chatgpt.com',
      },
      key,
    )
    t.equal(await call(url, 'complete_aeo_run', { run_id: run.id, agent_id: 'operator-laptop-1', capture_id: captureId }, key), null)
  }
  const runStats = await call<Record<string, number>>(url, 'get_aeo_run_stats', { client_id: clientId }, key)
  t.match(runStats, { done: 4, queued: 0, total: 4 }, 'every run is done')
  const agents = await call<{ agent_id: string; online: boolean }[]>(url, 'get_aeo_agents', {}, key)
  t.ok(
    agents.some((a) => a.agent_id === 'operator-laptop-1' && a.online),
    'the operator agent is registered and online',
  )

  // 6. Captures, summary, items.
  const captures = await call<{ id: number; engine: string; report_json: any }[]>(url, 'get_aeo_captures', { client_id: clientId }, key)
  t.equal(captures.length, 4, 'four captures')
  t.ok(
    captures.every((c) => c.report_json?.scorecard?.present === true),
    'the client is present in every answer',
  )
  const summary = await call<any>(url, 'get_aeo_summary', { client_id: clientId }, key)
  t.ok(JSON.stringify(summary).includes('"denominator":4'), 'the summary rates are over the four captures')
  const firsts = captures.map((c) => c.report_json.scorecard.named_first)
  t.same(
    firsts.sort(),
    [false, false, true, true],
    'named first in the server agent’s answers, second after Austin Pipe Pros in the operator’s',
  )
  const items = await call<{ id: number; item_key: string; tier: string; status: string }[]>(
    url,
    'get_aeo_items',
    { client_id: clientId, status: 'open' },
    key,
  )
  t.ok(items.length > 0, `the analysis opened tracker items (${items.map((i) => `${i.tier}:${i.item_key}`).join(', ')})`)
  const item = items[0]!
  await call(url, 'update_aeo_item_status', { item_id: item.id, status: 'done', client_id: clientId, note: 'fixed on the site' }, key)
  t.match(await call(url, 'get_aeo_item', { item_id: item.id }, key), { status: 'done', note: 'fixed on the site' })

  // 7. Branding, the report, filed and downloaded.
  await call(url, 'update_organization_branding', { name: 'Workflow Agency', accent_color: '#0a7f5a' }, key)
  const report = await call<{ ok: boolean; html: string; month: string; months: string[] }>(
    url,
    'aeo_report_html',
    { client_id: clientId },
    key,
  )
  t.equal(report.ok, true, 'the report renders')
  t.match(report.html, /Rapid Rooter Plumbing/, 'it names the client')
  t.match(report.html, /#0a7f5a/i, 'with the organization’s accent colour')
  const filed = await call<{ files: { path: string; url?: string }[] }>(
    url,
    'file_aeo_report',
    { client_id: clientId, month: report.month },
    key,
  )
  t.equal(filed.files.length, 1, 'one file filed')
  const download = await fetch(`${url}/api/v1/files/${filed.files[0]!.path}`, { headers: { authorization: `Bearer ${key}` } })
  t.equal(download.status, 200, 'the filed report downloads')
  // The filed copy is rendered when filed: the same report but for the moment in its footer.
  const generatedAt = /generated \d{4}-\d\d-\d\dT[\d:.]+Z/g
  t.equal(
    (await download.text()).replace(generatedAt, 'generated <t>'),
    report.html.replace(generatedAt, 'generated <t>'),
    'the report, as rendered',
  )
  const other = await rpc(url, 'get_aeo_summary', { client_id: clientId, org_id: orgId + 999 }, platform)
  t.not(other.status, 200, 'another organization id does not reach the client')

  // 8. The auditor's view: every step is an event of the organization, in order.
  const replay = await box.run(['replay', '--org', String(orgId)])
  t.equal(replay.code, 0, `replay exits 0: ${replay.stderr}`)
  const types = replay.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { type: string }).type)
  const steps = [
    'ClientAdded',
    'AeoQuestionAdded',
    'AeoQuestionUpdated',
    'AeoCadenceSet',
    'AeoRunQueued',
    'AeoRunClaimed',
    'AeoCaptureIngested',
    'AeoCaptureTracked',
    'AeoRunCompleted',
    'AeoAgentRegistered',
    'AeoItemStatusChanged',
    'OrganizationBrandingUpdated',
    'AeoReportFiled',
  ]
  for (const step of steps) t.ok(types.includes(step), `replay shows ${step}`)
  t.ok(types.indexOf('AeoCadenceSet') < types.indexOf('AeoRunQueued'), 'enrolment before the queue')
  t.ok(types.indexOf('AeoRunQueued') < types.indexOf('AeoRunClaimed'), 'queued before claimed')
  t.ok(types.lastIndexOf('AeoRunCompleted') < types.indexOf('AeoItemStatusChanged'), 'runs done before the item was worked')
  t.equal(types.filter((type) => type === 'AeoRunCompleted').length, 4, 'four completions')
})
