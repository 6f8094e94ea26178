/**
 * Rank checks end to end, through HTTP with the processors running against a local DataForSEO stand-in: a
 * client with keywords, a location and a page → set_rank_cadence → the scheduler queues a check each day
 * (the test moves the clock) → the runner searches every keyword × location × device and records the ranks
 * → the rank reads answer, with the page, competitors and the AI Overview's citation. run_rank_check answers
 * the open check; another organization's client and check answer 404 like missing ones.
 */
import t from 'tap'
import { startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import type { SerpFixture } from '../support/stand-ins/serp-fixture.js'
import { startTestSystem } from '../support/system.js'
import { eventually, handClock } from './aeo-runs-helpers.js'
import { expectError, orgWithKey, withoutIds } from './helpers.js'
import { rankRowsOf, searchSettings, type RankCheck } from './search-rank-checks-helpers.js'

t.test('keywords and a location → cadence → daily checks → rank history', async (t) => {
  const standIn = await startDataForSeoSerpStandIn(t)
  const clock = handClock('2026-11-26T08:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now, runProcessors: true, search: searchSettings({ dataforseo: standIn }) })
  const acme = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')

  const clientId = await ts.call<number>(
    'add_client',
    { client: { name: 'Acme Plumbing', website_url: 'https://www.acmeplumbing.example' } },
    acme.key,
  )
  const austin = await ts.call<number>('add_location', { location: { client_id: clientId, name: 'Austin, TX' } }, acme.key)
  const drain = await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: 'drain cleaning austin' } }, acme.key)
  const heater = await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: 'water heater repair' } }, acme.key)
  const drainPage = await ts.call<number>(
    'add_page',
    { page: { client_id: clientId, url: 'https://acmeplumbing.example/services/drain-cleaning', title: 'Drain cleaning' } },
    acme.key,
  )
  await ts.call('associate_keyword_page', { keyword_id: drain, page_id: drainPage, primary: true }, acme.key)

  // The client climbs from 3rd to 2nd for drain cleaning; the AI Overview cites it. Heater: not in the top 100.
  let drainPosition = 3
  standIn.pages((search): SerpFixture => {
    const rivals = Array.from({ length: 12 }, (_, i) => `https://rival-${i + 1}.example/${search.device}`)
    if (search.keyword === 'drain cleaning austin') {
      const organic = [...rivals]
      organic.splice(drainPosition - 1, 0, 'https://www.acmeplumbing.example/services/drain-cleaning/')
      return {
        organic,
        localPack: [{ title: 'Acme Plumbing', url: 'https://acmeplumbing.example/' }],
        peopleAlsoAsk: ['How much is drain cleaning?'],
        aiOverview: { references: ['https://rival-1.example/guide', 'https://acmeplumbing.example/blog/drains'] },
      }
    }
    return { organic: rivals, aiOverview: { references: ['https://rival-2.example/'] } }
  })

  const cadence = await ts.call('set_rank_cadence', { client_id: clientId, frequency: 'daily' }, acme.key)
  t.match(cadence, { client_id: clientId, frequency: 'daily', devices: ['desktop', 'mobile'] })
  t.same(await ts.call('get_rank_cadence', { client_id: clientId }, acme.key), cadence)

  const first = await eventually(async () => {
    const [check] = await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, acme.key)
    return check?.status === 'completed' ? check : undefined
  }, 'the first scheduled check')
  t.match(first, {
    client_id: clientId,
    date: '2026-11-26',
    trigger: 'cadence',
    provider: 'dataforseo',
    devices: ['desktop', 'mobile'],
    keyword_count: 2,
    location_count: 1,
    tasks_total: 4,
    tasks_done: 4,
    tasks_failed: 0,
    provider_calls: 4,
    retries: 0,
    attempt: 1,
    error: null,
    failed_tasks: [],
  })
  t.same(
    standIn.searches.map((s) => s.location),
    ['Austin,Texas,United States', 'Austin,Texas,United States', 'Austin,Texas,United States', 'Austin,Texas,United States'],
    "every search from the client's location, by DataForSEO's name for it",
  )

  // The next day the cadence is due again; the client moved up.
  drainPosition = 2
  clock.advance(24 * 3600_000)
  const second = await eventually(async () => {
    const checks = await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, acme.key)
    return checks.length === 2 && checks[0]!.status === 'completed' ? checks[0] : undefined
  }, 'the second day’s check')
  t.equal(second.date, '2026-11-27')
  t.equal(standIn.searches.length, 8, 'one search per keyword × location × device × day, none repeated')

  t.same(await ts.call('get_available_rank_dates', { client_id: clientId }, acme.key), ['2026-11-27', '2026-11-26'])
  const history = await ts.call<any>('get_rank_history', { keyword_id: drain }, acme.key)
  t.match(history, { keyword_id: drain, client_id: clientId, location_id: austin, device: 'desktop' })
  t.same(
    history.points.map((p: any) => [p.date, p.position, p.change, p.page_id, p.ai_overview, p.ai_overview_cites_client]),
    [
      ['2026-11-26', 3, null, drainPage, true, true],
      ['2026-11-27', 2, 1, drainPage, true, true],
    ],
  )
  const latest = await ts.call<any>('get_latest_rank', { keyword_id: drain }, acme.key)
  t.match(latest, {
    keyword_id: drain,
    location_id: austin,
    device: 'desktop',
    date: '2026-11-27',
    position: 2,
    url: 'https://www.acmeplumbing.example/services/drain-cleaning/',
    page_id: drainPage,
    source: 'dataforseo',
    check_id: second.id,
  })
  t.same(latest.competitors.slice(0, 3), ['rival-1.example', 'rival-2.example', 'rival-3.example'])
  t.match(latest.serp_features, {
    local_pack: true,
    local_pack_includes_client: true,
    people_also_ask: true,
    ai_overview: true,
    ai_overview_cites_client: true,
  })
  t.match(await ts.call('get_previous_rank', { keyword_id: drain }, acme.key), { date: '2026-11-26', position: 3 })
  t.match(await ts.call('get_rank_for_date', { keyword_id: drain, target_date: '2026-11-26' }, acme.key), { position: 3 })
  t.equal((await ts.call<any[]>('get_last_n_ranks_for_keyword', { keyword_id: drain, n: 5 }, acme.key)).length, 2)
  t.equal((await ts.call<any[]>('get_latest_rank_for_keyword', { keyword_id: drain }, acme.key)).length, 2, 'desktop and mobile')
  const heaterLatest = await ts.call<any>('get_latest_rank', { keyword_id: heater, device: 'mobile' }, acme.key)
  t.match(heaterLatest, { position: null, url: null, page_id: null, serp_features: { ai_overview: true, ai_overview_cites_client: false } })
  t.equal((await rankRowsOf(ts, clientId)).length, 8, 'eight rows: 2 keywords × 1 location × 2 devices × 2 days')

  await t.test('run_rank_check answers the open check, and a check of a checked day fetches nothing again', async (t) => {
    const before = standIn.searches.length
    standIn.script({ kind: 'ok', delayMs: 300 })
    const queued = await ts.call<RankCheck & { created: boolean }>('run_rank_check', { client_id: clientId }, acme.key)
    t.match(queued, { client_id: clientId, date: '2026-11-27', trigger: 'manual', created: true })
    const again = await ts.call<RankCheck & { created: boolean }>('run_rank_check', { client_id: clientId }, acme.key)
    t.equal(again.id, queued.id, 'the open one')
    t.equal(again.created, false)
    const done = await eventually(async () => {
      const check = await ts.call<RankCheck>('get_rank_check', { check_id: queued.id }, acme.key)
      return check.status === 'completed' ? check : undefined
    }, 'the manual check')
    t.match(done, { tasks_total: 4, tasks_done: 4, provider_calls: 0 }, 'every rank of the day is recorded already')
    t.equal(standIn.searches.length, before, 'no search made')
  })

  await t.test('set_rank_cadence off: no more scheduled checks', async (t) => {
    await ts.call('set_rank_cadence', { client_id: clientId, frequency: 'off' }, acme.key)
    const count = (await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, acme.key)).length
    clock.advance(24 * 3600_000)
    await new Promise((resolve) => setTimeout(resolve, 500)) // several scheduler passes (SEARCH_POLL_MS 50)
    t.equal((await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, acme.key)).length, count)
  })

  await t.test("another organization's client and check answer like missing ones", async (t) => {
    const [check] = await ts.call<RankCheck[]>('get_rank_checks', { client_id: clientId }, acme.key)
    const foreign = expectError(t, await ts.rpc('get_rank_check', { check_id: check!.id }, other.key), 404, 'not_found')
    const missing = expectError(t, await ts.rpc('get_rank_check', { check_id: 999_999 }, other.key), 404, 'not_found')
    t.same(withoutIds(foreign, [check!.id]), withoutIds(missing, [999_999]))
    for (const method of ['run_rank_check', 'get_rank_checks', 'get_rank_cadence']) {
      expectError(t, await ts.rpc(method, { client_id: clientId }, other.key), 404, 'not_found', method)
    }
    expectError(t, await ts.rpc('set_rank_cadence', { client_id: clientId, frequency: 'daily' }, other.key), 404, 'not_found')
    expectError(t, await ts.rpc('set_rank_cadence', { client_id: clientId, frequency: 'hourly' }, acme.key), 400, 'validation_failed')
  })
})
