/**
 * The keyword metrics processor against a local stand-in that speaks DataForSEO's wire format
 * (test/support/stand-ins/dataforseo-keywords.ts): the processors role fetches what is missing, once per
 * phrase an organization's clients share, one Google Ads task per market and ≤ 1000 phrases plus a Labs
 * difficulty task; an outage is retried with backoff and visible, and never loses or doubles a row; a 401 or
 * 402 is a coded failure on the fetch and the keywords, tried again only after the cooldown or a refresh
 * request, never in a loop; Labs refusing leaves volumes recorded and difficulty null; stale numbers are
 * fetched again; the public sandbox is never fetched for.
 */
import t from 'tap'
import { sql } from 'kysely'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { startDataForSeoKeywords } from '../support/stand-ins/dataforseo-keywords.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { eventually, handClock } from '../http/aeo-runs-helpers.js'
import { orgWithKey } from '../http/helpers.js'
import { metricsPass, metricsSettingsFor } from './search-metrics-pass.js'

const DAY = 86_400_000
const settingsFor = metricsSettingsFor
const passWith = metricsPass

async function metricsRowCount(ts: TestSystem, orgId: number): Promise<number> {
  const { rows } = await sql<{
    n: number
  }>`select count(*)::int as n from ${sql.id(LIVE_SCHEMA, 'keyword_metrics')} where org_id = ${orgId}`.execute(ts.system.database.db)
  return rows[0]!.n
}

async function agency(ts: TestSystem, name: string) {
  const org = await orgWithKey(ts, name)
  const call = <T = any>(method: string, body: unknown) => ts.call<T>(method, body, org.key)
  const client = (clientName: string, extra: Record<string, unknown> = {}) =>
    call<number>('add_client', { client: { name: clientName, website_url: `https://${clientName.toLowerCase()}.example.com`, ...extra } })
  const keyword = (clientId: number, text: string) => call<number>('add_keyword', { keyword: { client_id: clientId, keyword: text } })
  return { ...org, call, client, keyword }
}

t.test('the processors role fetches missing metrics from DataForSEO, once per shared phrase', async (t) => {
  const standIn = await startDataForSeoKeywords(t)
  standIn.volumes.set('drain cleaning austin', {
    search_volume: 880,
    cpc: 14.37,
    competition: 'HIGH',
    competition_index: 78,
    keyword_difficulty: 23,
  })
  const search = settingsFor(standIn)
  const ts = await startTestSystem(t, { search })
  const acme = await agency(ts, 'Acme')
  const plumbers = await acme.client('Plumbers', { locations: ['Austin, TX'] })
  const drains = await acme.client('Drains', { locations: ['Dallas, TX'] })
  const drain = await acme.keyword(plumbers, 'Drain cleaning, Austin')
  const shared = await acme.keyword(drains, 'drain cleaning austin')
  const unknown = await acme.keyword(plumbers, 'zzz obscure phrase')
  const long = await acme.keyword(plumbers, 'one two three four five six seven eight nine ten eleven words')
  // The processors role starts once the keywords are in, so its first pass sees them all.
  ts.system.startProcessors()

  const metrics = await eventually(async () => {
    const m = await acme.call('get_keyword_metrics', { keyword_id: drain })
    return m.status === 'fresh' && m
  }, 'the metrics processor to fetch')
  t.match(metrics, {
    keyword_id: drain,
    location_code: 2840,
    search_volume: 880,
    cpc: 14.37,
    competition: 'high',
    competition_index: 78,
    difficulty: 23,
    source: 'dataforseo',
    status: 'fresh',
    last_error: null,
  })
  t.equal(metrics.monthly_searches.length, 12, "twelve months of Google Ads' history")
  t.same(metrics.monthly_searches[0], { year: 2026, month: 10, search_volume: metrics.monthly_searches[0].search_volume })
  t.match(
    await acme.call('get_keyword_metrics', { keyword_id: shared }),
    { search_volume: 880, difficulty: 23 },
    'the other client shares it',
  )
  t.match(
    await acme.call('get_keyword_metrics', { keyword_id: unknown }),
    { status: 'fresh', search_volume: null, difficulty: null },
    'no data from Google Ads: nulls, and not asked again until stale',
  )
  t.match(
    await acme.call('get_keyword_metrics', { keyword_id: long }),
    { status: 'missing' },
    'a phrase the provider refuses is never sent',
  )

  const volumeCalls = standIn.calls.filter((c) => c.endpoint === 'search_volume')
  t.equal(volumeCalls.length, 1, 'one Google Ads task')
  t.same(volumeCalls[0]!.keywords.sort(), ['drain cleaning austin', 'zzz obscure phrase'], 'each phrase once, normalized')
  t.match(volumeCalls[0], { authorized: true, location_code: 2840, language_code: 'en' })
  t.same(Object.keys(volumeCalls[0]!.tasks[0]!).sort(), ['keywords', 'language_code', 'location_code'], 'the task as the SDK posts it')
  t.equal(standIn.calls.filter((c) => c.endpoint === 'difficulty').length, 1, 'one Labs difficulty task')

  const [fetch] = await acme.call<any[]>('list_keyword_metrics_fetches', {})
  t.match(fetch, {
    source: 'dataforseo',
    status: 'succeeded',
    location_code: 2840,
    keywords: 2,
    with_data: 1,
    difficulty: 'fetched',
    attempts: 1,
    provider_calls: 2,
    cost_usd: 0.0852,
    error: null,
  })
  // Several more passes: nothing is needed, nothing is fetched again.
  await new Promise((resolve) => setTimeout(resolve, 400))
  t.equal(standIn.calls.length, 2, 'no call while the numbers are fresh')
  t.equal(await metricsRowCount(ts, acme.orgId), 2, 'one row per phrase')
})

t.test(
  'an outage is retried with backoff and visible; a fetch that runs out of attempts is tried again a quarter of an hour later',
  async (t) => {
    const clock = handClock('2026-11-02T06:00:00.000Z')
    const standIn = await startDataForSeoKeywords(t)
    const search = settingsFor(standIn)
    const ts = await startTestSystem(t, { search, clock: clock.now })
    const pass = passWith(ts, search)
    const acme = await agency(ts, 'Acme')
    const plumbers = await acme.client('Plumbers')
    const ids = [await acme.keyword(plumbers, 'drain cleaning austin'), await acme.keyword(plumbers, 'emergency plumber austin')]

    standIn.script('search_volume', 'http_500', 'task_internal_error')
    t.match(await pass(), { ran: true, fetches: 1, failed: 0 })
    const [retried] = await acme.call<any[]>('list_keyword_metrics_fetches', {})
    t.match(retried, {
      status: 'succeeded',
      attempts: 3,
      provider_calls: 4,
      error: { code: 'metrics_provider_unavailable', message: 'Internal Error.', http_status: 200, provider_status: 50000 },
    })
    t.equal(standIn.calls.filter((c) => c.endpoint === 'search_volume').length, 3, 'two failures, then the answer')

    // Asked for again, and the provider down for longer than the attempts: a failed fetch, numbers kept.
    const before = await acme.call('get_keyword_metrics', { keyword_id: ids[0] })
    clock.advance(60_000)
    await acme.call('refresh_keyword_metrics', { client_id: plumbers })
    standIn.down('search_volume', 'http_503')
    t.match(await pass(), { fetches: 1, failed: 1 })
    const [failed] = await acme.call<any[]>('list_keyword_metrics_fetches', { status: 'failed' })
    t.match(failed, {
      status: 'failed',
      keywords: 2,
      attempts: 3,
      provider_calls: 3,
      error: { code: 'metrics_provider_unavailable', message: 'Service Unavailable.', http_status: 503, provider_status: 50301 },
    })
    const kept = await acme.call('get_keyword_metrics', { keyword_id: ids[0] })
    t.equal(kept.search_volume, before.search_volume, 'the numbers stay')
    t.match(kept, { status: 'refresh_requested', last_error: { code: 'metrics_provider_unavailable', message: 'Service Unavailable.' } })

    const calls = standIn.calls.length
    t.match(await pass(), { fetches: 0 }, 'not asked again at once (no loop against a failing provider)')
    t.equal(standIn.calls.length, calls)
    standIn.down('search_volume', null)
    clock.advance(15 * 60_000)
    t.match(await pass(), { fetches: 1, failed: 0 }, 'a quarter of an hour later it is')
    t.match(await acme.call('get_keyword_metrics', { keyword_id: ids[0] }), { status: 'fresh', last_error: null })
    t.equal(await metricsRowCount(ts, acme.orgId), 2, 'never a second row for a phrase')
    t.match(await pass(), { fetches: 0 }, 'then nothing is needed')
  },
)

t.test('402 and 401: a coded failure on the fetch and the keywords, not retried until the cooldown or a refresh', async (t) => {
  const clock = handClock('2026-11-02T06:00:00.000Z')
  const standIn = await startDataForSeoKeywords(t)
  const search = settingsFor(standIn)
  const ts = await startTestSystem(t, { search, clock: clock.now })
  const pass = passWith(ts, search)
  const acme = await agency(ts, 'Acme')
  const bravo = await agency(ts, 'Bravo')
  const acmeClient = await acme.client('Plumbers', { locations: ['Leeds, England, UK'] })
  const bravoClient = await bravo.client('Dentists')
  const drain = await acme.keyword(acmeClient, 'drain unblocking leeds')
  await acme.keyword(await acme.client('Austin', { locations: ['Austin, TX'] }), 'drain cleaning austin')
  const implants = await bravo.keyword(bravoClient, 'dental implants miami')

  standIn.down('search_volume', 'payment_required')
  t.match(await pass(), { fetches: 2, failed: 2 }, 'one refused call per organization: its other market waits')
  t.equal(standIn.calls.length, 2)
  const [failed] = await acme.call<any[]>('list_keyword_metrics_fetches', {})
  t.match(failed, {
    status: 'failed',
    attempts: 1,
    error: { code: 'metrics_provider_payment_required', message: 'Payment Required.', http_status: 402, provider_status: 40200 },
  })
  t.match(await bravo.call('get_keyword_metrics', { keyword_id: implants }), {
    status: 'missing',
    last_error: { code: 'metrics_provider_payment_required', message: 'Payment Required.', at: '2026-11-02T06:00:00.000Z' },
  })
  for (let i = 0; i < 3; i++) t.match(await pass(), { fetches: 0 }, 'no call during the cooldown')
  t.same((await pass()).skippedOrgs, [acme.orgId], "the cooldown holds back the organization's other market too")
  t.equal(standIn.calls.length, 2, 'never a loop of refused calls')

  standIn.down('search_volume', null)
  clock.advance(60_000)
  await acme.call('refresh_keyword_metrics', { client_id: acmeClient })
  t.match(await pass(), { fetches: 2, failed: 0 }, 'a refresh request tries the organization again at once (both its markets)')
  t.match(await bravo.call('get_keyword_metrics', { keyword_id: implants }), { status: 'missing' }, 'the other still waits')
  t.match(await acme.call('get_keyword_metrics', { keyword_id: drain }), { status: 'fresh', location_code: 2826, last_error: null })
  t.same(
    standIn.calls.slice(-4).map((c) => [c.endpoint, c.location_code]),
    [
      ['search_volume', 2826],
      ['difficulty', 2826],
      ['search_volume', 2840],
      ['difficulty', 2840],
    ],
    "each client's market, the refused one first",
  )

  clock.advance(3_600_001)
  t.match(await pass(), { fetches: 1, failed: 0, skippedOrgs: [] }, 'after the cooldown the other is tried again')
  t.match(await bravo.call('get_keyword_metrics', { keyword_id: implants }), { status: 'fresh', last_error: null })

  // Wrong credentials: 401 from DataForSEO, the same treatment.
  const wrong = { ...search, dataforseo: { ...search.dataforseo!, password: 'not-the-password' } }
  await bravo.keyword(bravoClient, 'teeth whitening miami')
  clock.advance(60_000)
  const before = standIn.calls.length
  t.match(await passWith(ts, wrong)(), { fetches: 1, failed: 1 })
  t.match(await passWith(ts, wrong)(), { fetches: 0 })
  t.equal(standIn.calls.length, before + 1, 'one refused call')
  t.equal(standIn.calls.at(-1)!.authorized, false)
  const [unauthorized] = await bravo.call<any[]>('list_keyword_metrics_fetches', { status: 'failed' })
  t.match(unauthorized, { error: { code: 'metrics_provider_unauthorized', http_status: 401, provider_status: 40100 } })
})

t.test('Labs refusing leaves difficulty null and says why; volumes are recorded', async (t) => {
  const standIn = await startDataForSeoKeywords(t)
  const search = settingsFor(standIn)
  const ts = await startTestSystem(t, { search })
  const acme = await agency(ts, 'Acme')
  const id = await acme.keyword(await acme.client('Plumbers'), 'water heater repair')
  standIn.down('difficulty', 'access_denied')
  t.match(await passWith(ts, search)(), { fetches: 1, failed: 0 })
  const metrics = await acme.call('get_keyword_metrics', { keyword_id: id })
  t.ok(metrics.search_volume > 0, 'the volume is recorded')
  t.equal(metrics.difficulty, null)
  const [fetch] = await acme.call<any[]>('list_keyword_metrics_fetches', {})
  t.match(fetch, {
    status: 'succeeded',
    difficulty: 'unavailable',
    difficulty_error: { code: 'metrics_provider_payment_required', message: /Access denied/ },
    provider_calls: 2,
    cost_usd: 0.075,
  })
})

t.test('batches of at most the task size, per market; stale numbers are fetched again', async (t) => {
  const clock = handClock('2026-11-02T06:00:00.000Z')
  const standIn = await startDataForSeoKeywords(t)
  const search = settingsFor(standIn)
  const ts = await startTestSystem(t, { search, clock: clock.now })
  const pass = passWith(ts, search, 2)
  const acme = await agency(ts, 'Acme')
  const us = await acme.client('Plumbers')
  const de = await acme.client('Klempner', { settings: { keyword_metrics_country: 'DE' } })
  for (const k of ['a one', 'a two', 'a three', 'a four', 'a five']) await acme.keyword(us, k)
  await acme.keyword(de, 'rohrreinigung berlin')
  t.match(await pass(), { fetches: 4, failed: 0 })
  const calls = standIn.calls.filter((c) => c.endpoint === 'search_volume')
  t.same(
    calls.map((c) => [c.location_code, c.language_code, c.keywords.length]),
    [
      [2840, 'en', 2],
      [2840, 'en', 2],
      [2840, 'en', 1],
      [2276, 'de', 1],
    ],
  )
  t.equal(await metricsRowCount(ts, acme.orgId), 6)
  t.match(await pass(), { fetches: 0 })
  clock.advance(31 * DAY)
  t.match(await pass(), { fetches: 4 }, 'older than KEYWORD_METRICS_MAX_AGE_DAYS: fetched again')
  t.equal(await metricsRowCount(ts, acme.orgId), 6, 'the same rows, updated')
  t.same(
    (await acme.call<any[]>('get_keyword_metrics_for_client', { client_id: us })).map((m) => m.fetched_at),
    Array(5).fill(clock.now().toISOString()),
  )
})

t.test('the public sandbox is never fetched for', async (t) => {
  const clock = handClock('2026-11-02T06:00:00.000Z')
  const standIn = await startDataForSeoKeywords(t)
  const search = settingsFor(standIn)
  const ts = await startTestSystem(t, { search, clock: clock.now })
  const s = ts.system
  const outcome = await resetSandbox({ write: s.write, read: s.read, db: s.database.db, watermark: s.watermark, log: s.log }, clock.now())
  const seeded = await ts.call<any[]>('get_keyword_metrics_for_client', { org_id: outcome.orgId, client_id: outcome.clientId })
  t.ok(seeded.length > 0 && seeded.every((m) => m.status === 'fresh' && m.source === 'recorded'), 'the seed records fictional metrics')
  clock.advance(60 * DAY)
  const report = await passWith(ts, search)()
  t.same(report.skippedOrgs, [outcome.orgId], 'stale, and still left alone')
  t.equal(standIn.calls.length, 0, 'no provider call spent on fiction')
})

t.test('a slow answer is abandoned at the timeout and retried', async (t) => {
  const standIn = await startDataForSeoKeywords(t)
  const search = settingsFor(standIn, { timeoutMs: 200 })
  const ts = await startTestSystem(t, { search })
  const acme = await agency(ts, 'Acme')
  const id = await acme.keyword(await acme.client('Plumbers'), 'tankless water heater austin')
  standIn.script('search_volume', { slowMs: 2000 })
  t.match(await passWith(ts, search)(), { fetches: 1, failed: 0 })
  const [fetch] = await acme.call<any[]>('list_keyword_metrics_fetches', {})
  t.match(fetch, {
    status: 'succeeded',
    attempts: 2,
    error: { code: 'metrics_provider_unavailable', message: 'No answer before the timeout', http_status: null, provider_status: null },
  })
  t.match(await acme.call('get_keyword_metrics', { keyword_id: id }), { status: 'fresh' })
})
