/**
 * Engines that nothing can answer: with no engine keys, set_aeo_cadence with four engines
 * enrolled silently and enqueue_due_aeo_runs queued runs no agent would ever claim. Now enrolment answers a
 * `warnings` array naming each such engine and why (a server engine: no API key configured; an agent engine
 * such as chatgpt-web: no agent seen claiming it), get_aeo_queue_overview says the same, and the processors
 * log it once per enrolment. An engine stops being warned about once an agent has claimed with it, the
 * built-in server agent included (which claims exactly the engines it has keys for).
 */
import t, { type Test } from 'tap'
import pino from 'pino'
import { Writable } from 'node:stream'
import { openSystem } from '../../ops/system.js'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'

const NO_KEY = 'no API key configured'
const NO_AGENT = 'no agent seen claiming it'
/** Mid-month, so that runs are due at once. */
const NOW = new Date('2026-03-15T12:00:00.000Z')

const reasons = (warnings: { engine: string; reason: string; hint: string }[]) => warnings.map((w) => [w.engine, w.reason])

async function enrolledClient(t: Test) {
  const ts = await startTestSystem(t, { clock: () => NOW })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>(
    'add_client',
    { client: { name: 'Acme Plumbing', website_url: 'https://acmeplumbing.example.com' } },
    org.key,
  )
  await ts.call('add_aeo_query', { client_id: clientId, prompt: 'best plumber in Austin' }, org.key)
  return { ts, org, clientId }
}

t.test('enrolment names each engine nothing can answer, and why; the queue overview too', async (t) => {
  const { ts, org, clientId } = await enrolledClient(t)
  const enrolment = { client_id: clientId, samples_per_month: 1, engines: ['claude', 'openai', 'gemini', 'chatgpt'] }
  const set = await ts.call('set_aeo_cadence', enrolment, org.key)
  t.match(
    set,
    { enabled: true, samples_per_month: 1, engines: ['claude', 'openai', 'gemini', 'chatgpt-web'], geo_state: null },
    'the cadence as before',
  )
  t.strictSame(reasons(set.warnings), [
    ['claude', NO_KEY],
    ['openai', NO_KEY],
    ['gemini', NO_KEY],
    ['chatgpt-web', NO_AGENT],
  ])
  t.match(set.warnings[0].hint, /ANTHROPIC_API_KEY/, 'the hint names the key to set')
  t.match(set.warnings[3].hint, /claim_aeo_runs/, 'and how an agent claims it')
  t.strictSame(
    await ts.call('get_aeo_cadence', { client_id: clientId }, org.key),
    { enabled: true, samples_per_month: 1, engines: ['claude', 'openai', 'gemini', 'chatgpt-web'], geo_state: null },
    'get_aeo_cadence unchanged',
  )

  t.equal(await ts.call('enqueue_due_aeo_runs', { client_id: clientId }, org.key), 4, 'one run per engine is queued anyway')
  const overview = await ts.call('get_aeo_queue_overview', {}, org.key)
  t.strictSame(
    reasons(overview.warnings),
    [
      ['chatgpt-web', NO_AGENT],
      ['claude', NO_KEY],
      ['gemini', NO_KEY],
      ['openai', NO_KEY],
    ],
    'the overview: engines by name',
  )

  // An operator device claims chatgpt-web runs: that engine is answered from now on.
  const claimed = await ts.call<unknown[]>(
    'claim_aeo_runs',
    { agent_id: 'laptop-1', capabilities_json: JSON.stringify({ engines: ['chatgpt-web'] }) },
    org.key,
  )
  t.equal(claimed.length, 1)
  const again = await ts.call('set_aeo_cadence', { ...enrolment, samples_per_month: 2 }, org.key)
  t.strictSame(reasons(again.warnings), [
    ['claude', NO_KEY],
    ['openai', NO_KEY],
    ['gemini', NO_KEY],
  ])
  t.strictSame(reasons((await ts.call('get_aeo_queue_overview', {}, org.key)).warnings), [
    ['claude', NO_KEY],
    ['gemini', NO_KEY],
    ['openai', NO_KEY],
  ])

  // Another organization's agent does not answer this organization's runs.
  const other = await orgWithKey(ts, 'Other')
  await ts.call('claim_aeo_runs', { agent_id: 'elsewhere', capabilities_json: JSON.stringify({ engines: ['claude'] }) }, other.key)
  t.strictSame(reasons((await ts.call('set_aeo_cadence', enrolment, org.key)).warnings), [
    ['claude', NO_KEY],
    ['openai', NO_KEY],
    ['gemini', NO_KEY],
  ])

  const off = await ts.call('set_aeo_cadence', { ...enrolment, enabled: false }, org.key)
  t.strictSame(off.warnings, [], 'a disabled cadence queues nothing: nothing to warn about')
})

t.test('the processors log it once per enrolment; an engine the server agent has a key for is not warned about', async (t) => {
  const { ts, org, clientId } = await enrolledClient(t)
  const lines: { msg: string; client_id?: number; warnings?: { engine: string; reason: string }[] }[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  // The processors' process, with a Gemini key only (its server agent claims gemini; the endpoint is never reached).
  const processors = await openSystem({
    databaseUrl: ts.database.url,
    log: pino({ level: 'warn' }, sink),
    clock: () => NOW,
    aeoProcessors: {
      engines: { gemini: { apiKey: 'AIza-test', baseUrl: 'http://127.0.0.1:9', model: 'gemini-2.5-flash' } },
      sweepIntervalMs: 3_600_000,
      agentPollMs: 50,
      agentConcurrency: 1,
    },
  })
  t.teardown(() => processors.close())
  processors.startProcessors()
  const warned = () => lines.filter((l) => l.client_id === clientId && Array.isArray(l.warnings))
  const until = async (what: string, done: () => Promise<boolean> | boolean) => {
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
      if (await done()) return
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    t.fail(`timed out waiting: ${what}`)
  }
  // The server agent checks in on its first claim (an empty queue).
  await until('the server agent is seen', async () =>
    (await ts.call<{ agent_id: string }[]>('get_aeo_agents', {}, org.key)).some((a) => a.agent_id === 'server-api'),
  )

  const set = await ts.call(
    'set_aeo_cadence',
    { client_id: clientId, samples_per_month: 1, engines: ['claude', 'gemini', 'chatgpt-web'] },
    org.key,
  )
  t.strictSame(
    reasons(set.warnings),
    [
      ['claude', NO_KEY],
      ['chatgpt-web', NO_AGENT],
    ],
    'gemini is answered by the server agent',
  )
  await until('the enrolment is logged', () => warned().length > 0)
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.equal(warned().length, 1, 'logged once')
  const [line] = warned()
  t.match(line, { level: 40, msg: /engines nothing can answer/ })
  t.strictSame(
    line!.warnings!.map((w) => [w.engine, w.reason]),
    [
      ['claude', NO_KEY],
      ['chatgpt-web', NO_AGENT],
    ],
  )

  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 1, engines: ['claude', 'gemini', 'chatgpt-web'] }, org.key)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 1, engines: ['gemini'] }, org.key)
  await ts.call('set_aeo_cadence', { client_id: clientId, samples_per_month: 2, engines: ['openai'] }, org.key)
  await until('the next enrolment is logged', () => warned().length > 1)
  await new Promise((resolve) => setTimeout(resolve, 500))
  t.strictSame(
    warned().map((l) => l.warnings!.map((w) => w.engine)),
    [['claude', 'chatgpt-web'], ['openai']],
    'an unchanged cadence is no new enrolment, one every engine can answer logs nothing',
  )
})
