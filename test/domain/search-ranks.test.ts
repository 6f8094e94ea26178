/**
 * Rank rows, pure: a day records each key once, an identical row again adds nothing, a different one is a
 * replacement only with overwrite, rows are chunked into events of MAX_ROWS_PER_EVENT, a key twice or a row
 * of another day is refused; the facts check (keyword of the client, deleted, location, page); the primary
 * series rule, the change between two ranks and the URL matcher.
 */
import t from 'tap'
import { MAX_ROWS_PER_EVENT, type RanksEvent } from '../../domain/search/ranks/events.js'
import { checkRankRows, pageMatcher, type RankFacts } from '../../domain/search/ranks/rank-facts.js'
import { classifyRanks, rankDay, rankDayStream, rowFingerprint, type RankDayCommand } from '../../domain/search/ranks/rank-day.js'
import { NO_SERP_FEATURES, rankRowKey, type RankRow } from '../../domain/search/ranks/rank-row.js'
import { primaryLocationId, rankChange, seriesOf } from '../../domain/search/ranks/series.js'
import { fold } from '../../domain/shared/aggregate.js'
import { DomainError } from '../../domain/shared/errors.js'
import { spec } from './given-when-then.js'

const given = spec(rankDay)
const CLIENT = 7
const DATE = '2026-03-02'

const row = (keyword_id: number, extra: Partial<RankRow> = {}): RankRow => ({
  keyword_id,
  location_id: 88,
  device: 'desktop',
  date: DATE,
  position: 4,
  url: 'https://acme-plumbing.example.com/drain-cleaning',
  page_id: 220,
  competitors: ['rotorooter.com', 'yelp.com'],
  serp_features: { ...NO_SERP_FEATURES, people_also_ask: true },
  source: 'dataforseo',
  ...extra,
})
const recorded = (rows: RankRow[], check_id: number | null = 5120): RanksEvent => ({
  type: 'KeywordRanksRecorded',
  data: { client_id: CLIENT, date: DATE, check_id, rows },
})
const record = (rows: RankRow[], overwrite: boolean, check_id: number | null = null): RankDayCommand => ({
  type: 'RecordRanks',
  client_id: CLIENT,
  date: DATE,
  check_id,
  rows,
  overwrite,
})

t.test('a day records each key once; the same row again changes nothing', async (t) => {
  t.equal(rankDayStream({ clientId: CLIENT, date: DATE }), 'keyword_ranks-7-2026-03-02')
  given()
    .when(record([row(1), row(2, { device: 'mobile' })], false, 5120))
    .then(t, [recorded([row(1), row(2, { device: 'mobile' })])])
  given(recorded([row(1)]))
    .when(record([row(1)], false))
    .thenNothingHappens(t)
  given(recorded([row(1)]))
    .when(record([row(1)], true))
    .thenNothingHappens(t)
  // The same keyword at another location, on another device, or nationally is another key.
  given(recorded([row(1)]))
    .when(record([row(1, { location_id: null }), row(1, { device: 'mobile' }), row(1, { location_id: 89 })], false, 5121))
    .then(t, [recorded([row(1, { location_id: null }), row(1, { device: 'mobile' }), row(1, { location_id: 89 })], 5121)])
})

t.test('a different row for a recorded key replaces it only with overwrite', async (t) => {
  const corrected = row(1, { position: 3, source: 'recorded' })
  given(recorded([row(1)]))
    .when(record([corrected], true))
    .then(t, [recorded([corrected], null)])
  given(recorded([row(1)]))
    .when(record([corrected], false))
    .thenNothingHappens(t)
  // Mixed: new keys are recorded in either mode, in the order given.
  given(recorded([row(1)]))
    .when(record([row(3), corrected, row(2)], false))
    .then(t, [recorded([row(3), row(2)], null)])
  const state = fold(rankDay, [recorded([row(1), row(2)])])
  const counts = (c: ReturnType<typeof classifyRanks>) => ({
    write: c.write.length,
    recorded: c.recorded,
    updated: c.updated,
    unchanged: c.unchanged,
  })
  t.strictSame(
    counts(classifyRanks(state, [corrected, row(2, { position: 9 }), row(3), row(4, { location_id: null })], true)),
    { write: 4, recorded: 2, updated: 2, unchanged: 0 },
    'with overwrite: two replacements and two new',
  )
  t.strictSame(
    counts(classifyRanks(state, [row(1), row(2, { position: 9 }), row(3)], false)),
    { write: 1, recorded: 1, updated: 0, unchanged: 2 },
    'without overwrite a recorded key counts as unchanged, identical or not',
  )
  t.strictSame(counts(classifyRanks(state, [row(1)], true)), { write: 0, recorded: 0, updated: 0, unchanged: 1 }, 'identical: unchanged')
})

t.test('the fingerprint is what the row says, whatever the key order of its features', async (t) => {
  const a = row(1)
  const reordered = { ...a, serp_features: Object.fromEntries(Object.entries(a.serp_features).reverse()) as RankRow['serp_features'] }
  t.equal(rowFingerprint(reordered), rowFingerprint(a))
  for (const change of [
    { position: null },
    { url: null },
    { page_id: null },
    { competitors: ['yelp.com', 'rotorooter.com'] },
    { serp_features: { ...a.serp_features, ai_overview: true } },
    { source: 'serpapi' as const },
  ]) {
    t.not(rowFingerprint({ ...a, ...change }), rowFingerprint(a), `${Object.keys(change)[0]} changes the fingerprint`)
  }
})

t.test('rows are chunked into events of at most MAX_ROWS_PER_EVENT', async (t) => {
  const rows = Array.from({ length: 2 * MAX_ROWS_PER_EVENT + 3 }, (_, i) => row(i + 1))
  const events = rankDay.decide(record(rows, false, 9), fold(rankDay, []))
  t.strictSame(
    events.map((e) => e.data.rows.length),
    [MAX_ROWS_PER_EVENT, MAX_ROWS_PER_EVENT, 3],
  )
  t.strictSame(
    events.flatMap((e) => e.data.rows),
    rows,
    'every row once, in order',
  )
  const state = fold(rankDay, events)
  t.equal(state.rows.size, rows.length)
  t.equal(state.clientId, CLIENT)
})

t.test('a key twice in one command, or a row of another day, is refused', async (t) => {
  given()
    .when(record([row(1), row(2), row(1, { position: 9 })], true))
    .thenThrows(t, 'validation_failed', { detail: 'ranks[2]: keyword 1, location 88, desktop, 2026-03-02 is given twice' })
  given()
    .when(record([row(1, { date: '2026-03-01' })], true))
    .thenThrows(t, 'validation_failed')
})

t.test('rows must name a live keyword, a current location and a page of the client', async (t) => {
  const facts: RankFacts = {
    keywords: new Map([
      [1, false],
      [2, true],
    ]),
    locationIds: new Set([88]),
    pageIds: new Set([220]),
  }
  const codeOf = (rows: RankRow[]) => {
    try {
      checkRankRows(rows, facts, CLIENT)
      return 'ok'
    } catch (error) {
      return error instanceof DomainError ? `${error.code}: ${error.detail}` : 'other'
    }
  }
  t.equal(codeOf([row(1), row(1, { location_id: null, page_id: null })]), 'ok')
  t.equal(codeOf([row(1), row(3)]), 'rank_keyword_unknown: ranks[1]: keyword 3 is not a keyword of client 7')
  t.equal(codeOf([row(2)]), 'rank_keyword_deleted: ranks[0]: keyword 2 is deleted')
  t.equal(codeOf([row(1, { location_id: 89 })]), 'rank_location_unknown: ranks[0]: location 89 is not a current location of client 7')
  t.equal(codeOf([row(1, { page_id: 221 })]), 'rank_page_unknown: ranks[0]: page 221 is not a page of client 7')
})

t.test('the primary series: the named location, else the first, else national; desktop', async (t) => {
  const locations = [
    { id: 88, name: 'Austin, TX' },
    { id: 89, name: 'Round Rock, TX' },
  ]
  t.equal(primaryLocationId('round rock,  TX', locations), 89, 'the location the keyword names (as location names compare)')
  t.equal(primaryLocationId('', locations), 88, "no location named: the client's first")
  t.equal(primaryLocationId('Dallas, TX', locations), 88, "a location the client does not have: the client's first")
  t.equal(primaryLocationId('Austin, TX', []), null, 'no locations: national')
  t.strictSame(seriesOf({}, 88), { device: 'desktop', locationId: 88 })
  t.strictSame(seriesOf({ device: 'mobile', location_id: null }, 88), { device: 'mobile', locationId: null }, 'null asks for national')
  t.strictSame(seriesOf({ location_id: 89 }, 88), { device: 'desktop', locationId: 89 })
})

t.test('change: positions gained, null outside the top 100', async (t) => {
  t.equal(rankChange(8, 5), 3)
  t.equal(rankChange(5, 8), -3)
  t.equal(rankChange(4, 4), 0)
  t.equal(rankChange(null, 5), null)
  t.equal(rankChange(5, null), null)
  t.equal(rankChange(undefined, 5), null)
})

t.test('a ranking URL finds its page as pages compare URLs', async (t) => {
  const match = pageMatcher([
    { id: 220, url: 'https://acme-plumbing.example.com/drain-cleaning' },
    { id: 221, url: 'https://acme-plumbing.example.com/' },
    { id: 222, url: 'https://ACME-plumbing.example.com/drain-cleaning/' },
  ])
  t.equal(
    match('https://Acme-Plumbing.example.com/drain-cleaning/#pricing'),
    220,
    'host case, trailing slash and fragment ignored; the first page wins',
  )
  t.equal(match('https://acme-plumbing.example.com'), 221)
  t.equal(match('https://acme-plumbing.example.com/Drain-Cleaning'), null, 'paths keep their case')
  t.equal(match(null), null)
  t.equal(rankRowKey(row(1, { location_id: null })), '1|0|desktop|2026-03-02')
})
