/**
 * Rank rows through the RPCs: record_keyword_ranks (counts, idempotence per keyword × location × device ×
 * date, replacement, pages matched by URL, all-or-nothing refusals), the rank check's write (no overwrite),
 * the events a day's rows make, and every read: dates, the primary series and the other series, latest and
 * previous, a date (exact or on or before), the last n, chart history with change; another organization's
 * client and keyword answering exactly like missing ones.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { recordKeywordRanks } from '../../commands/search/ranks.js'
import { MAX_ROWS_PER_EVENT } from '../../domain/search/ranks/events.js'
import { rankDayStream } from '../../domain/search/ranks/rank-day.js'
import { NO_SERP_FEATURES, type RankRow } from '../../domain/search/ranks/rank-row.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

interface Rank {
  keyword_id: number
  client_id: number
  location_id: number | null
  device: 'desktop' | 'mobile'
  date: string
  position: number | null
  url: string | null
  page_id: number | null
  competitors: string[]
  serp_features: typeof NO_SERP_FEATURES
  source: string
  check_id: number | null
  recorded_at: string
}
interface History {
  keyword_id: number
  keyword: string
  client_id: number
  location_id: number | null
  device: string
  points: { date: string; position: number | null; change: number | null; page_id: number | null; ai_overview: boolean }[]
}
type Counts = { recorded: number; updated: number; unchanged: number }

const ts = await startTestSystem(t)
const org = await orgWithKey(ts, 'Acme')
const other = await orgWithKey(ts, 'Other')
const plumbers = await ts.call<number>(
  'add_client',
  clientPayload('Acme Plumbing', { locations: ['Austin, TX', 'Round Rock, TX'] }),
  org.key,
)
const roofers = await ts.call<number>('add_client', clientPayload('Acme Roofing'), org.key)
const foreignClient = await ts.call<number>('add_client', clientPayload('Other Plumbing', { locations: ['Dallas, TX'] }), other.key)
const [austin, roundRock] = (await ts.call<{ id: number }[]>('get_locations_for_client', { client_id: plumbers }, org.key)).map(
  (l) => l.id,
) as [number, number]
const dallas = (await ts.call<{ id: number }[]>('get_locations_for_client', { client_id: foreignClient }, other.key))[0]!.id

const keyword = (clientId: number, text: string, location = '', key = org.key) =>
  ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: text, location } }, key)
const drain = await keyword(plumbers, 'drain cleaning austin')
const heater = await keyword(plumbers, 'water heater repair round rock', 'Round Rock, TX')
const emergency = await keyword(plumbers, 'emergency plumber')
const roof = await keyword(roofers, 'roof repair')
const foreignKeyword = await keyword(foreignClient, 'drain cleaning dallas', '', other.key)
const drainPage = await ts.call<number>(
  'add_page',
  { page: { client_id: plumbers, url: 'https://acme-plumbing.example.com/drain-cleaning', title: 'Drain Cleaning' } },
  org.key,
)
const roofPage = await ts.call<number>(
  'add_page',
  { page: { client_id: roofers, url: 'https://acme-roofing.example.com/', title: 'Home' } },
  org.key,
)

const record = (client_id: number, ranks: Record<string, unknown>[], key = org.key) =>
  ts.call<Counts>('record_keyword_ranks', { client_id, ranks }, key)
const rank = (keyword_id: number, date: string, position: number | null, extra: Record<string, unknown> = {}) => ({
  keyword_id,
  location_id: austin,
  device: 'desktop',
  date,
  position,
  ...extra,
})
const days = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10))

t.test('record_keyword_ranks records, answers counts, and is idempotent per key', async (t) => {
  const first = [
    rank(drain, '2026-03-01', 5, {
      url: 'https://Acme-Plumbing.example.com/drain-cleaning/',
      competitors: ['rotorooter.com', 'yelp.com'],
      serp_features: { local_pack: true, local_pack_includes_client: true, ai_overview: true },
    }),
    rank(drain, '2026-03-01', 7, { device: 'mobile' }),
    rank(drain, '2026-03-01', null, { location_id: null }),
  ]
  t.strictSame(await record(plumbers, first), { recorded: 3, updated: 0, unchanged: 0 })
  const latest = await ts.call<Rank>('get_latest_rank', { keyword_id: drain }, org.key)
  t.match(latest, {
    keyword_id: drain,
    client_id: plumbers,
    location_id: austin,
    device: 'desktop',
    date: '2026-03-01',
    position: 5,
    url: 'https://Acme-Plumbing.example.com/drain-cleaning/',
    page_id: drainPage,
    competitors: ['rotorooter.com', 'yelp.com'],
    serp_features: { ...NO_SERP_FEATURES, local_pack: true, local_pack_includes_client: true, ai_overview: true },
    source: 'recorded',
    check_id: null,
  })
  t.ok(Date.parse(latest.recorded_at) > 0, 'recorded_at is a time')

  const before = await eventCount(ts)
  t.strictSame(await record(plumbers, first), { recorded: 0, updated: 0, unchanged: 3 }, 'the same ranks again: unchanged')
  t.equal(await eventCount(ts), before, 'and nothing appended')

  t.strictSame(
    await record(plumbers, [rank(drain, '2026-03-01', 4, { url: 'https://acme-plumbing.example.com/drain-cleaning' }), first[1]!]),
    { recorded: 0, updated: 1, unchanged: 1 },
    'a different rank for the key replaces it',
  )
  t.match(await ts.call<Rank>('get_latest_rank', { keyword_id: drain }, org.key), {
    position: 4,
    competitors: [],
    serp_features: NO_SERP_FEATURES,
  })
  t.strictSame(
    (await ts.call<History>('get_rank_history', { keyword_id: drain }, org.key)).points,
    [{ date: '2026-03-01', position: 4, change: null, page_id: drainPage, ai_overview: false, ai_overview_cites_client: false }],
    'a chart point',
  )
  const events = await streamEvents(ts, rankDayStream({ clientId: plumbers, date: '2026-03-01' }))
  t.strictSame(
    events.map((e) => [e.type, e.data.rows.length, e.metadata.org_id]),
    [
      ['KeywordRanksRecorded', 3, org.orgId],
      ['KeywordRanksRecorded', 1, org.orgId],
    ],
    "one stream per client and day, each event carrying the client's organization",
  )
})

t.test('page_id: matched by URL when left out, kept when given, none when null', async (t) => {
  const url = 'https://acme-plumbing.example.com/drain-cleaning#prices'
  await record(plumbers, [
    rank(emergency, '2026-03-01', 9, { url }),
    rank(emergency, '2026-03-01', 9, { url, device: 'mobile', page_id: null }),
    rank(emergency, '2026-03-01', 12, { url: 'https://acme-plumbing.example.com/blog/clogs', location_id: roundRock }),
  ])
  const rows = await ts.call<Rank[]>('get_latest_rank_for_keyword', { keyword_id: emergency }, org.key)
  t.strictSame(
    rows.map((r) => [r.location_id, r.device, r.page_id]),
    [
      [austin, 'desktop', drainPage],
      [austin, 'mobile', null],
      [roundRock, 'desktop', null],
    ],
  )
})

t.test('refusals record nothing, with a coded 400', async (t) => {
  const deleted = await keyword(plumbers, 'sewer line repair')
  await ts.call('delete_keyword', { keyword_id: deleted }, org.key)
  const before = await eventCount(ts)
  const refused = async (ranks: Record<string, unknown>[], code: string, detail?: string, clientId = plumbers) => {
    const body = expectError(t, await ts.rpc('record_keyword_ranks', { client_id: clientId, ranks }, org.key), 400, code, code)
    if (detail) t.equal(body.detail, detail)
  }
  const ok = rank(drain, '2026-03-05', 3)
  await refused(
    [ok, rank(roof, '2026-03-05', 2)],
    'rank_keyword_unknown',
    `ranks[1]: keyword ${roof} is not a keyword of client ${plumbers}`,
  )
  await refused([ok, rank(foreignKeyword, '2026-03-05', 2)], 'rank_keyword_unknown')
  await refused([rank(drain, '2026-03-05', 2, { location_id: dallas })], 'rank_location_unknown')
  await refused([rank(drain, '2026-03-05', 2, { page_id: roofPage })], 'rank_page_unknown')
  await refused([ok, { ...ok, position: 8 }], 'validation_failed')
  await refused([rank(drain, '2026-02-30', 3)], 'validation_failed')
  await refused([rank(drain, '2026-03-05', 0)], 'validation_failed')
  await refused([rank(drain, '2026-03-05', 101)], 'validation_failed')
  await refused([rank(drain, '2026-03-05', 3, { serp_features: { ai_overview_cites_client: true } })], 'validation_failed')
  await refused([rank(drain, '2026-03-05', 3, { competitors: Array.from({ length: 11 }, (_, i) => `c${i}.com`) })], 'validation_failed')
  await refused(
    Array.from({ length: 1001 }, (_, i) => rank(drain, days('2023-01-01', 1001)[i]!, 3)),
    'validation_failed',
  )
  await refused([], 'validation_failed')
  await refused([ok, rank(deleted, '2026-03-05', 2)], 'rank_keyword_deleted')
  t.equal(await eventCount(ts), before, 'nothing appended by any refused call')
  t.equal(await ts.call('get_rank_for_date', { keyword_id: drain, target_date: '2026-03-05', exact: true }, org.key), null)
})

t.test('a rank check never replaces a recorded key; a retried check records nothing', async (t) => {
  const deps = ts.system.write
  const context = systemContext('rank-check-test')
  const checkRow = (position: number): RankRow => ({
    keyword_id: heater,
    location_id: roundRock,
    device: 'desktop',
    date: '2026-03-01',
    position,
    url: null,
    page_id: null,
    competitors: ['homedepot.com'],
    serp_features: NO_SERP_FEATURES,
    source: 'serpapi',
  })
  const first = await recordKeywordRanks(deps, context, { clientId: plumbers, rows: [checkRow(11)], checkId: 77, overwrite: false })
  t.match(first, { recorded: 1, updated: 0, unchanged: 0 })
  t.ok(first.position, 'a position to wait for')
  const again = await recordKeywordRanks(deps, context, { clientId: plumbers, rows: [checkRow(11)], checkId: 78, overwrite: false })
  t.strictSame(again, { recorded: 0, updated: 0, unchanged: 1, position: null })
  const late = await recordKeywordRanks(deps, context, { clientId: plumbers, rows: [checkRow(3)], checkId: 79, overwrite: false })
  t.strictSame(late, { recorded: 0, updated: 0, unchanged: 1, position: null }, 'a different row from a check: kept as first recorded')
  await readModelsAt(ts, first.position!)
  t.match(await ts.call<Rank>('get_latest_rank', { keyword_id: heater }, org.key), {
    location_id: roundRock,
    position: 11,
    source: 'serpapi',
    check_id: 77,
  })
  // An operator's correction does replace what the check wrote.
  t.strictSame(await record(plumbers, [rank(heater, '2026-03-01', 10, { location_id: roundRock })]), {
    recorded: 0,
    updated: 1,
    unchanged: 0,
  })
  t.match(await ts.call<Rank>('get_latest_rank', { keyword_id: heater }, org.key), { position: 10, source: 'recorded', check_id: null })

  // A whole day of a bigger client in one call: one append of events of at most MAX_ROWS_PER_EVENT rows.
  const electricians = await ts.call<number>('add_client', clientPayload('Acme Electric'), org.key)
  const keywordIds: number[] = []
  for (let i = 0; i < MAX_ROWS_PER_EVENT; i++) keywordIds.push(await keyword(electricians, `electrician job ${i}`))
  const day = keywordIds.flatMap((keyword_id, i) =>
    (['desktop', 'mobile'] as const).map((device): RankRow => ({ ...checkRow(1 + i), keyword_id, location_id: null, device })),
  )
  const big = await recordKeywordRanks(deps, context, { clientId: electricians, rows: day, checkId: 80, overwrite: false })
  t.match(big, { recorded: 2 * MAX_ROWS_PER_EVENT, updated: 0, unchanged: 0 })
  const events = await streamEvents(ts, rankDayStream({ clientId: electricians, date: '2026-03-01' }))
  t.strictSame(
    events.map((e) => [e.data.rows.length, e.data.check_id]),
    [
      [MAX_ROWS_PER_EVENT, 80],
      [MAX_ROWS_PER_EVENT, 80],
    ],
    'rows chunked into events',
  )
  await readModelsAt(ts, big.position!)
  t.equal((await ts.call<Rank[]>('get_latest_rank_for_keyword', { keyword_id: keywordIds[7] }, org.key)).length, 2)
})

t.test('a deleted client takes no ranks', async (t) => {
  const gone = await ts.call<number>('add_client', clientPayload('Gone Plumbing'), org.key)
  const goneKeyword = await keyword(gone, 'plumber')
  await ts.call('set_client_status', { client_id: gone, status: 'deleted' }, org.key)
  expectError(
    t,
    await ts.rpc('record_keyword_ranks', { client_id: gone, ranks: [rank(goneKeyword, '2026-03-01', 1, { location_id: null })] }, org.key),
    409,
    'client_deleted',
  )
})

t.test('the reads: series, dates, latest, previous, a date, the last n and chart history', async (t) => {
  // Round Rock is the keyword's own location: its primary series. 30 days, climbing from 20 to 1 with a day out of the top 100.
  const dates = days('2026-01-01', 30)
  const positions = dates.map((_, i) => (i === 10 ? null : Math.max(1, 20 - Math.floor(i * 0.7))))
  await record(
    plumbers,
    dates.flatMap((date, i) => [
      rank(heater, date, positions[i]!, { location_id: roundRock, url: 'https://acme-plumbing.example.com/water-heaters' }),
      rank(heater, date, positions[i] === null ? null : positions[i]! + 2, { location_id: roundRock, device: 'mobile' }),
      ...(i % 7 === 0 ? [rank(heater, date, 30, { location_id: austin })] : []),
    ]),
  )
  const latest = await ts.call<Rank>('get_latest_rank', { keyword_id: heater }, org.key)
  t.match(
    latest,
    { date: '2026-03-01', location_id: roundRock, device: 'desktop', position: 10 },
    "the keyword's own location (a later day from above)",
  )
  t.match(await ts.call<Rank>('get_previous_rank', { keyword_id: heater }, org.key), { date: '2026-01-30', position: positions[29] })
  t.match(await ts.call<Rank>('get_latest_rank', { keyword_id: heater, device: 'mobile' }, org.key), {
    date: '2026-01-30',
    position: positions[29]! + 2,
  })
  t.match(await ts.call<Rank>('get_latest_rank', { keyword_id: heater, location_id: austin }, org.key), {
    date: '2026-01-29',
    position: 30,
  })
  t.equal(
    await ts.call('get_latest_rank', { keyword_id: heater, location_id: null, device: 'mobile' }, org.key),
    null,
    'no national mobile series',
  )
  t.equal(
    await ts.call('get_latest_rank', { keyword_id: heater, location_id: dallas }, org.key),
    null,
    "another client's location: no rows",
  )

  t.match(
    await ts.call<Rank>('get_latest_rank', { keyword_id: drain }, org.key),
    { location_id: austin, date: '2026-03-01' },
    "no location named: the client's first",
  )
  await record(roofers, [rank(roof, '2026-03-01', 2, { location_id: null })])
  t.match(
    await ts.call<Rank>('get_latest_rank', { keyword_id: roof }, org.key),
    { location_id: null, position: 2 },
    'a client without locations: national',
  )

  const every = await ts.call<Rank[]>('get_latest_rank_for_keyword', { keyword_id: heater }, org.key)
  t.strictSame(
    every.map((r) => [r.location_id, r.device, r.date]),
    [
      [austin, 'desktop', '2026-01-29'],
      [roundRock, 'desktop', '2026-03-01'],
      [roundRock, 'mobile', '2026-01-30'],
    ],
    'the latest of every series, by location then device',
  )
  t.strictSame(
    (await ts.call<Rank[]>('get_latest_rank_for_keyword', { keyword_id: heater, device: 'mobile' }, org.key)).map((r) => r.device),
    ['mobile'],
  )

  t.match(await ts.call<Rank>('get_rank_for_date', { keyword_id: heater, target_date: '2026-01-05' }, org.key), {
    date: '2026-01-05',
    position: positions[4],
  })
  t.match(
    await ts.call<Rank>('get_rank_for_date', { keyword_id: heater, target_date: '2026-02-15' }, org.key),
    { date: '2026-01-30' },
    'a day without a rank: the latest before it',
  )
  t.equal(await ts.call('get_rank_for_date', { keyword_id: heater, target_date: '2026-02-15', exact: true }, org.key), null)
  t.equal(await ts.call('get_rank_for_date', { keyword_id: heater, target_date: '2025-12-31' }, org.key), null, 'nothing before')
  t.match(await ts.call<Rank>('get_rank_for_date', { keyword_id: heater, target_date: '2026-01-05', location_id: austin }, org.key), {
    date: '2026-01-01',
    position: 30,
  })

  const lastN = await ts.call<Rank[]>('get_last_n_ranks_for_keyword', { keyword_id: heater, n: 3 }, org.key)
  t.strictSame(
    lastN.map((r) => r.date),
    ['2026-03-01', '2026-01-30', '2026-01-29'],
    'newest first',
  )
  t.equal((await ts.call<Rank[]>('get_last_n_ranks_for_keyword', { keyword_id: heater }, org.key)).length, 10, 'n defaults to 10')

  const history = await ts.call<History>('get_rank_history', { keyword_id: heater, limit: 25 }, org.key)
  t.match(history, {
    keyword_id: heater,
    keyword: 'water heater repair round rock',
    client_id: plumbers,
    location_id: roundRock,
    device: 'desktop',
  })
  t.equal(history.points.length, 25)
  const chart = [...dates.map((date, i) => ({ date, position: positions[i]! })), { date: '2026-03-01', position: 10 }]
  t.strictSame(
    history.points.map((p) => [p.date, p.position, p.change]),
    chart.slice(-25).map((p, i, window) => {
      const before = i === 0 ? chart[chart.length - 26]!.position : window[i - 1]!.position
      return [p.date, p.position, before === null || p.position === null ? null : before - p.position]
    }),
    'oldest first; change against the rank before (the first point against the one before the window)',
  )
  t.equal(history.points.find((p) => p.date === '2026-01-11')?.position, null, 'a day out of the top 100')
  t.equal(
    (await ts.call<History>('get_rank_history', { keyword_id: heater }, org.key)).points.length,
    31,
    'the default limit (90) takes all 31',
  )
  t.strictSame(
    (await ts.call<History>('get_rank_history', { keyword_id: heater, device: 'mobile', location_id: null }, org.key)).points,
    [],
    'a series without ranks: no points',
  )
  t.equal((await ts.call<History>('get_rank_history', { keyword_id: heater, limit: 1 }, org.key)).points[0]!.change, positions[29]! - 10)

  t.strictSame(
    (await ts.call<string[]>('get_available_rank_dates', { client_id: plumbers }, org.key)).slice(0, 4),
    ['2026-03-01', '2026-01-30', '2026-01-29', '2026-01-28'],
    'newest first, every day any series has',
  )
  t.equal((await ts.call<string[]>('get_available_rank_dates', { client_id: plumbers }, org.key)).length, 31)
  t.strictSame(await ts.call('get_available_rank_dates', { client_id: foreignClient }, other.key), [])
  // The primary series, as the reads of one row (domain rule) and get_rank_history (its SQL form) find it.
  const shouted = await keyword(plumbers, 'leak repair', 'ROUND   rock, TX')
  await record(plumbers, [rank(shouted, '2026-03-01', 9, { location_id: roundRock }), rank(shouted, '2026-03-01', 19)])
  for (const [id, location] of [
    [heater, roundRock],
    [shouted, roundRock],
    [drain, austin],
    [emergency, austin],
    [roof, null],
  ] as const) {
    const one = await ts.call<Rank | null>('get_latest_rank', { keyword_id: id }, org.key)
    const chart = await ts.call<History>('get_rank_history', { keyword_id: id }, org.key)
    t.equal(chart.location_id, location, `keyword ${id}: the history's primary location`)
    t.equal(one?.location_id, location, `keyword ${id}: the latest rank's primary location`)
  }
  t.equal(
    (await ts.call<History>('get_rank_history', { keyword_id: shouted, location_id: austin }, org.key)).points[0]?.position,
    19,
    'a location asked for',
  )
  expectError(t, await ts.rpc('get_rank_history', { keyword_id: heater, limit: 1001 }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('get_last_n_ranks_for_keyword', { keyword_id: heater, n: 0 }, org.key), 400, 'validation_failed')
})

t.test("another organization's client and keyword answer exactly like missing ones", async (t) => {
  const missing = 9_999_999
  const cases: [string, (id: number) => Record<string, unknown>, number][] = [
    ['get_available_rank_dates', (id) => ({ client_id: id }), plumbers],
    ['record_keyword_ranks', (id) => ({ client_id: id, ranks: [rank(drain, '2026-03-09', 1)] }), plumbers],
    ['get_latest_rank', (id) => ({ keyword_id: id }), drain],
    ['get_latest_rank_for_keyword', (id) => ({ keyword_id: id }), drain],
    ['get_previous_rank', (id) => ({ keyword_id: id }), drain],
    ['get_rank_for_date', (id) => ({ keyword_id: id, target_date: '2026-03-01' }), drain],
    ['get_last_n_ranks_for_keyword', (id) => ({ keyword_id: id }), drain],
    ['get_rank_history', (id) => ({ keyword_id: id }), drain],
  ]
  const before = await eventCount(ts)
  for (const [method, params, id] of cases) {
    const foreign = expectError(t, await ts.rpc(method, params(id), other.key), 404, 'not_found', `${method} of another organization`)
    const absent = expectError(t, await ts.rpc(method, params(missing), other.key), 404, 'not_found', `${method} of a missing id`)
    t.strictSame(withoutIds(foreign, [id]), withoutIds(absent, [missing]), `${method}: the same answer`)
  }
  t.equal(await eventCount(ts), before, 'nothing recorded for the other organization')
  t.match(await ts.call('get_latest_rank', { keyword_id: foreignKeyword }, other.key), null, 'the other organization reads its own keyword')
})
