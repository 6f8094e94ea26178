/**
 * The built-in server-API agent end to end: runs queued for a client are claimed by the agent, asked of
 * each engine through its SDK against a local provider server, captured, and completed; provider errors
 * fail the run with the provider's reason and the run is retried, never captured.
 */
import t, { type Test } from 'tap'
import { fitRecord, SERVER_AGENT_ID, ServerAgent } from '../../../processors/aeo/server-agent.js'
import { DEFAULT_MODELS } from '../../../processors/aeo/settings.js'
import { startTestSystem } from '../../support/system.js'
import { orgWithKey, streamEvents } from '../../http/helpers.js'
import { fixture, fixtureText, startProviderServer, type ProviderServer, type RecordedRequest } from './provider-server.js'

const PROMPT = 'best emergency plumber in Austin, TX'
// A one-second backoff: real (the clock runs at real speed), short enough for the retries to happen here.
const settings = { claimLeaseSeconds: 600, maxAttempts: 3, retryBackoffSeconds: [1], recordRetentionDays: 90, agentOnlineSeconds: 300 }

const claude = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/messages'
const openai = (r: RecordedRequest) => r.method === 'POST' && r.url === '/v1/responses'
const gemini = (r: RecordedRequest) => r.method === 'POST' && r.url === `/v1beta/models/${DEFAULT_MODELS.gemini}:generateContent`

/** A clock that starts mid-month (so one sample a month is due at once) and runs at real speed. */
function midMonthClock(): () => Date {
  const base = Date.parse('2026-11-15T12:00:00.000Z')
  const started = Date.now()
  return () => new Date(base + (Date.now() - started))
}

async function setup(t: Test, options: { concurrency?: number } = {}) {
  const provider = await startProviderServer(t)
  const ts = await startTestSystem(t, {
    clock: midMonthClock(),
    runProcessors: true,
    aeo: settings,
    aeoProcessors: {
      engines: {
        claude: { apiKey: 'sk-ant-test', baseUrl: provider.origin, model: DEFAULT_MODELS.claude },
        openai: { apiKey: 'sk-proj-test', baseUrl: `${provider.origin}/v1`, model: DEFAULT_MODELS.openai },
        gemini: { apiKey: 'AIza-test', baseUrl: provider.origin, model: DEFAULT_MODELS.gemini },
      },
      sweepIntervalMs: 3_600_000,
      agentPollMs: 50,
      agentConcurrency: options.concurrency ?? 2,
    },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>(
    'add_client',
    { client: { name: 'Radiant Plumbing & Air Conditioning', website_url: 'https://radiantplumbing.com' } },
    acme.key,
  )
  const queryId = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: PROMPT }, acme.key)
  const agent = ts.system.processors.find((p): p is ServerAgent => p instanceof ServerAgent)
  if (!agent) throw new Error('the server agent is not among the processors')
  return { provider, ts, acme, clientId, queryId, agent }
}

/** Polls (no timing asserted) until the condition holds; fails the test with the last value after a generous bound. */
async function until<T>(t: Test, what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000
  let value = await read()
  while (!done(value)) {
    if (Date.now() > deadline) {
      t.fail(`gave up waiting: ${what}`, { value })
      return value
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
    value = await read()
  }
  return value
}

function serveGrounded(provider: ProviderServer) {
  const geminiGrounded = fixtureText('gemini-grounded.json')
  provider.route((r) => (claude(r) ? { body: fixture('claude-grounded.json') } : undefined))
  provider.route((r) => (openai(r) ? { body: fixture('openai-grounded.json') } : undefined))
  provider.route((r) => (gemini(r) ? { body: geminiGrounded } : undefined))
}

t.test('runs for claude, openai and gemini are claimed, asked, captured and done; provider errors fail and retry', async (t) => {
  const { provider, ts, acme, clientId, queryId } = await setup(t)
  // The first openai answer is a rate limit (rest 200 ms), the first gemini answer a provider failure.
  provider.enqueue(openai, { status: 429, headers: { 'retry-after-ms': '200' }, body: fixture('openai-429.json') })
  provider.enqueue(gemini, { status: 500, body: fixture('gemini-500.json') })
  serveGrounded(provider)

  await ts.call(
    'set_aeo_cadence',
    { client_id: clientId, samples_per_month: 2, engines: ['claude', 'openai', 'gemini'], geo_state: 'TX' },
    acme.key,
  )
  await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key)

  const stats = await until(
    t,
    'every run done',
    () => ts.call<Record<string, number>>('get_aeo_run_stats', { client_id: clientId }, acme.key),
    (s) => s.total === 3 && s.done === 3,
  )
  t.match(stats, { total: 3, done: 3, failed: 0, queued: 0, claimed: 0, running: 0 })

  const runs = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)
  const byEngine = new Map(runs.map((r) => [r.engine, r]))
  t.same([...byEngine.keys()].sort(), ['claude', 'gemini', 'openai'])
  for (const run of runs) t.equal(run.agent_id, SERVER_AGENT_ID, `${run.engine}: done by the server agent`)
  t.equal(byEngine.get('claude').attempts, 1)
  t.equal(byEngine.get('openai').attempts, 2, 'the rate-limited run was retried')
  t.equal(byEngine.get('gemini').attempts, 2, 'the failed run was retried')

  const geminiEvents = await streamEvents(ts, `aeo_run-${byEngine.get('gemini').id}`)
  t.same(
    geminiEvents.map((e) => e.type),
    ['AeoRunQueued', 'AeoRunClaimed', 'AeoRunStarted', 'AeoRunFailed', 'AeoRunClaimed', 'AeoRunStarted', 'AeoRunCompleted'],
  )
  const geminiFailure = geminiEvents.find((e) => e.type === 'AeoRunFailed')!
  t.match(geminiFailure.data, { agent_id: SERVER_AGENT_ID, agent_org_id: null, retry: true })
  t.match(geminiFailure.data.error, /^Gemini 500: An internal error has occurred\./, "the provider's reason")
  t.equal(geminiFailure.metadata.org_id, acme.orgId, "the failure is in the client's organization")
  const openaiFailure = (await streamEvents(ts, `aeo_run-${byEngine.get('openai').id}`)).find((e) => e.type === 'AeoRunFailed')!
  t.match(openaiFailure.data.error, /^OpenAI 429: Rate limit reached for gpt-5/)
  // The retry time is decided a moment before the event's occurred_at is stamped: compare against the delays.
  const waited = (e: { data: { retry_at: string }; metadata: { occurred_at: string } }) =>
    Date.parse(e.data.retry_at) - Date.parse(e.metadata.occurred_at)
  t.ok(waited(openaiFailure) > 0 && waited(openaiFailure) <= 200, "the 429's retry-after-ms (200 ms), not the 1 s schedule", {
    waited: waited(openaiFailure),
  })
  t.ok(waited(geminiFailure) > 200 && waited(geminiFailure) <= 1000, 'a 500 waits the schedule (1 s)', { waited: waited(geminiFailure) })

  const captures = await ts.call<any[]>('get_aeo_captures', { client_id: clientId }, acme.key)
  t.equal(captures.length, 3, 'one capture per run: the failed attempts captured nothing')
  const capture = new Map(captures.map((c) => [c.engine, c]))
  for (const run of runs) t.equal(run.capture_id, capture.get(run.engine).id, `${run.engine}: the run names its capture`)
  for (const c of captures) {
    t.match(c, { query_id: queryId, month: '2026-11', surface: 'api', searched: true }, c.engine)
    t.equal(c.run_id, byEngine.get(c.engine).id)
  }
  t.equal(capture.get('claude').model, 'claude-sonnet-4-5-20250929', 'the model that answered')
  t.equal(capture.get('openai').model, 'gpt-5-2025-08-07')
  t.equal(capture.get('gemini').model, 'gemini-2.5-flash')
  t.same(
    capture.get('claude').citations.map((c: { url: string }) => c.url),
    ['https://radiantplumbing.com/emergency-plumber-austin/', 'https://www.abacusplumbing.net/austin/'],
  )
  t.equal(capture.get('claude').retrieved.length, 2)
  t.equal(capture.get('openai').citations.length, 3)
  t.equal(capture.get('gemini').citations.length, 4)
  t.match(capture.get('claude').answer_text, /^Here are some of the best-reviewed emergency plumbers/)

  const record = await ts.call<any>('get_aeo_capture', { capture_id: capture.get('claude').id }, acme.key)
  t.same(JSON.parse(record.record_json), fixture('claude-grounded.json'), 'the raw provider response is the record')

  // The requests carried the run's prompt and geo to each provider.
  const asked = provider.requests.filter(claude)[0]!
  t.same(asked.body.messages, [{ role: 'user', content: PROMPT }])
  t.match(asked.body.tools[0], { type: 'web_search_20250305', user_location: { region: 'Texas', country: 'US' } })
  t.equal(provider.requests.filter(openai).length, 2)
  t.equal(provider.requests.filter(gemini).length, 2)

  const agents = await ts.call<any[]>('get_aeo_agents', {})
  const serverAgent = agents.find((a) => a.agent_id === SERVER_AGENT_ID)
  t.ok(serverAgent, 'registered as an agent')
  t.same(
    [...serverAgent.capabilities.engines].sort(),
    ['claude', 'gemini', 'openai'],
    'claims for every enabled engine once the rest is over',
  )
  t.equal(serverAgent.capabilities.geo, 'any')
})

t.test('a run whose engine keeps failing ends failed with the last reason, and nothing is captured', async (t) => {
  const { provider, ts, acme, clientId } = await setup(t)
  provider.route((r) =>
    claude(r) ? { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } } : undefined,
  )
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['claude'] }, acme.key)
  await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key)
  const stats = await until(
    t,
    'the run failed for good',
    () => ts.call<Record<string, number>>('get_aeo_run_stats', { client_id: clientId }, acme.key),
    (s) => s.failed === 1,
  )
  t.match(stats, { total: 1, failed: 1, done: 0 })
  const [run] = await ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key)
  t.equal(run.attempts, settings.maxAttempts)
  t.equal(run.error, 'Anthropic 529: Overloaded')
  t.equal(provider.requests.filter(claude).length, settings.maxAttempts)
  t.same(await ts.call('get_aeo_captures', { client_id: clientId }, acme.key), [])
})

t.test('an engine whose key is refused rests: its run fails once and waits in the queue, the other engines go on', async (t) => {
  const { provider, ts, acme, clientId } = await setup(t)
  provider.route((r) =>
    claude(r) ? { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } : undefined,
  )
  serveGrounded(provider)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['claude', 'openai'] }, acme.key)
  await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key)
  const agent = await until(
    t,
    'the agent stops claiming for claude',
    async () => (await ts.call<any[]>('get_aeo_agents', {})).find((a) => a.agent_id === SERVER_AGENT_ID),
    (a) => a !== undefined && !a.capabilities.engines.includes('claude'),
  )
  t.same([...agent.capabilities.engines].sort(), ['gemini', 'openai'], 'every enabled engine but the resting one')
  const runs = await until(
    t,
    'the openai run is done',
    () => ts.call<any[]>('get_aeo_runs', { client_id: clientId }, acme.key),
    (list) => list.some((r) => r.engine === 'openai' && r.status === 'done'),
  )
  const claudeRun = runs.find((r) => r.engine === 'claude')
  t.match(
    claudeRun,
    { status: 'queued', attempts: 1, error: 'Anthropic 401: invalid x-api-key' },
    'failed once, back in the queue, not burnt through',
  )
  t.equal(provider.requests.filter(claude).length, 1)
})

t.test('stop() waits for the runs in hand', async (t) => {
  const { provider, ts, acme, clientId, agent } = await setup(t, { concurrency: 1 })
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let asked!: () => void
  const askedOnce = new Promise<void>((resolve) => (asked = resolve))
  // The provider holds its answer until the test lets it go.
  let answered = 0
  provider.route(async (r) => {
    if (!claude(r)) return undefined
    asked()
    await released
    answered++
    return { body: fixture('claude-grounded.json') }
  })
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['claude'] }, acme.key)
  await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, acme.key)
  await askedOnce
  let stopped = false
  const stopping = agent.stop().then(() => (stopped = true))
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve))
  t.equal(stopped, false, 'still waiting for the run in hand')
  release()
  await stopping
  t.equal(answered, 1)
  const stats = await until(
    t,
    'the run in hand is done',
    () => ts.call<Record<string, number>>('get_aeo_run_stats', { client_id: clientId }, acme.key),
    (s) => s.done === 1,
  )
  t.match(stats, { total: 1, done: 1 })
})

t.test('fitRecord keeps a record within the capture limit', async (t) => {
  const small = { id: 'msg', content: [{ type: 'text', text: 'hi' }] }
  t.equal(fitRecord(small, 1000), small, 'a record that fits is kept whole')
  const blob = 'x'.repeat(5000)
  const opaque = { id: 'msg', content: [{ type: 'web_search_result', url: 'https://a.example/', encrypted_content: blob }] }
  t.same(fitRecord(opaque, 1000), {
    record_trimmed: 'opaque provider fields omitted',
    id: 'msg',
    content: [{ type: 'web_search_result', url: 'https://a.example/' }],
  })
  t.same(fitRecord([opaque], 1000), {
    record_trimmed: 'opaque provider fields omitted',
    responses: [{ id: 'msg', content: [{ type: 'web_search_result', url: 'https://a.example/' }] }],
  })
  const huge = { text: '"é'.repeat(10_000) }
  const fitted = fitRecord(huge, 4000) as { record_trimmed: string; original_bytes: number; head: string }
  t.equal(fitted.record_trimmed, 'truncated')
  t.ok(Buffer.byteLength(JSON.stringify(fitted), 'utf8') <= 4000, 'even a record without opaque fields fits')
})
