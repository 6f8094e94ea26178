/**
 * Keyword metrics, the pure parts: the market a client's metrics are for, which phrases the provider takes,
 * when numbers are wanted again, how a provider failure is classed, how provider results become rows, and
 * the two aggregates (a fetch ends once; a refresh request names the client's phrases).
 */
import t from 'tap'
import type { FetchEvent, KeywordMetricsRow, ProviderFailure } from '../../domain/search/metrics/events.js'
import { classifyProviderFailure, isAccountFailure } from '../../domain/search/metrics/failures.js'
import { type FetchSummary, metricsFetch } from '../../domain/search/metrics/fetch.js'
import { isStale, metricsNeed } from '../../domain/search/metrics/freshness.js'
import { METRICS_COUNTRIES, metricsCountryByCode, metricsCountryNamed, metricsLocationFor } from '../../domain/search/metrics/location.js'
import { providerKeywordProblem } from '../../domain/search/metrics/provider-keyword.js'
import { metricsRefresh } from '../../domain/search/metrics/refresh.js'
import { metricsRows, valuesOf } from '../../domain/search/metrics/results.js'
import { spec } from './given-when-then.js'

const US = { location_code: 2840, location_name: 'United States', language_code: 'en' }
const GB = { location_code: 2826, location_name: 'United Kingdom', language_code: 'en' }

t.test('the market: setting, else the first location naming a country, else the United States', async (t) => {
  const at = (settings: Record<string, string>, locations: { country: string; state: string }[]) =>
    metricsLocationFor({ settings, locations })
  t.same(at({}, []), { location: US, chosenBy: 'default' }, 'no facts: the United States')
  t.same(at({}, [{ country: '', state: 'TX' }]), { location: US, chosenBy: 'client_location' }, 'a US state code')
  t.same(at({}, [{ country: '', state: 'Texas' }]).location, US, 'a US state name')
  t.same(at({}, [{ country: '', state: 'ON' }]).location.location_code, 2124, 'a Canadian province')
  t.same(
    at({}, [
      { country: '', state: '' },
      { country: 'UK', state: '' },
    ]).location,
    GB,
    'the first location that names one',
  )
  t.same(at({}, [{ country: 'Atlantis', state: 'TX' }]).location, US, 'an unknown country is passed over, then the default')
  t.same(at({ keyword_metrics_country: 'GB' }, [{ country: 'US', state: 'TX' }]), { location: GB, chosenBy: 'setting' }, 'the setting wins')
  t.same(at({ keyword_metrics_country: '2826' }, []).location, GB, 'a location code as the setting')
  t.same(at({ keyword_metrics_country: ' united   kingdom ' }, []).location, GB, 'a name, spacing and case aside')
  t.same(at({ keyword_metrics_country: 'nowhere' }, [{ country: 'DE', state: '' }]).location, {
    location_code: 2276,
    location_name: 'Germany',
    language_code: 'de',
  })
})

t.test('the countries: Google Ads codes are 2000 + ISO numeric, unique, each findable by code and name', async (t) => {
  const codes = new Set(METRICS_COUNTRIES.map((c) => c.location_code))
  t.equal(codes.size, METRICS_COUNTRIES.length, 'no code twice')
  t.equal(metricsCountryNamed('US')?.location_code, 2840)
  t.equal(metricsCountryNamed('United Kingdom')?.location_code, 2826)
  t.equal(metricsCountryNamed('Australia')?.location_code, 2036)
  for (const c of METRICS_COUNTRIES) {
    t.equal(metricsCountryByCode(c.location_code), c, `${c.country} by code`)
    t.equal(metricsCountryNamed(c.location_name), c, `${c.country} by name`)
  }
  t.equal(metricsCountryNamed(''), undefined)
  t.equal(metricsCountryByCode(1026201), undefined, 'a city code is not a market')
})

t.test('which normalized phrases the provider takes (≤ 80 characters, ≤ 10 words)', async (t) => {
  t.equal(providerKeywordProblem('drain cleaning austin'), null)
  t.equal(providerKeywordProblem('a'.repeat(80)), null)
  t.match(providerKeywordProblem('a'.repeat(81)), /80 characters/)
  t.equal(providerKeywordProblem('one two three four five six seven eight nine ten'), null)
  t.match(providerKeywordProblem('one two three four five six seven eight nine ten eleven'), /10 words/)
})

t.test('when numbers are wanted: missing, refresh requested, stale, else fresh', async (t) => {
  const now = new Date('2026-11-30T00:00:00Z')
  const day = (d: string) => new Date(`2026-${d}T00:00:00Z`)
  t.equal(metricsNeed(undefined, now, 30), 'missing')
  t.equal(metricsNeed({ fetchedAt: null, refreshRequestedAt: null }, now, 30), 'missing', 'a row left by a failed fetch')
  t.equal(metricsNeed({ fetchedAt: day('11-20'), refreshRequestedAt: null }, now, 30), null)
  t.equal(metricsNeed({ fetchedAt: day('10-31'), refreshRequestedAt: null }, now, 30), null, 'exactly the age: still fresh')
  t.equal(metricsNeed({ fetchedAt: day('10-30'), refreshRequestedAt: null }, now, 30), 'stale')
  t.equal(metricsNeed({ fetchedAt: day('11-20'), refreshRequestedAt: day('11-25') }, now, 30), 'refresh_requested')
  t.equal(metricsNeed({ fetchedAt: day('11-26'), refreshRequestedAt: day('11-25') }, now, 30), null, 'a fetch after the request answers it')
  t.ok(isStale(day('01-01'), now, 30))
})

t.test('provider failures: credentials and billing end at once, outages and rate limits are retried', async (t) => {
  const c = (httpStatus: number | null, providerStatus: number | null) => classifyProviderFailure({ httpStatus, providerStatus })
  t.same(c(401, 40100), { code: 'metrics_provider_unauthorized', retryable: false })
  t.same(c(200, 40101), { code: 'metrics_provider_unauthorized', retryable: false })
  t.same(c(402, 40200), { code: 'metrics_provider_payment_required', retryable: false })
  t.same(c(200, 40200), { code: 'metrics_provider_payment_required', retryable: false }, 'billing in a 200 envelope')
  t.same(c(200, 40204), { code: 'metrics_provider_payment_required', retryable: false }, 'an API not in the plan')
  t.same(c(200, 40202), { code: 'metrics_provider_rate_limited', retryable: true })
  t.same(c(429, null), { code: 'metrics_provider_rate_limited', retryable: true })
  t.same(c(500, 50000), { code: 'metrics_provider_unavailable', retryable: true })
  t.same(c(503, null), { code: 'metrics_provider_unavailable', retryable: true })
  t.same(c(200, 50000), { code: 'metrics_provider_unavailable', retryable: true }, 'a task that failed inside')
  t.same(c(null, null), { code: 'metrics_provider_unavailable', retryable: true }, 'no answer (timeout, refused connection)')
  t.same(c(200, 40501), { code: 'metrics_provider_rejected', retryable: false }, 'a refused field')
  t.same(c(404, 40400), { code: 'metrics_provider_rejected', retryable: false })
  t.ok(isAccountFailure('metrics_provider_unauthorized'))
  t.ok(isAccountFailure('metrics_provider_payment_required'))
  t.notOk(isAccountFailure('metrics_provider_unavailable'))
})

t.test('provider results become one row per phrase sent, in order, nulls where there was no data', async (t) => {
  const sent = [
    { keyword_key: 'drain cleaning austin', keyword: 'Drain Cleaning, Austin' },
    { keyword_key: 'plumbr austin', keyword: 'plumbr austin' },
    { keyword_key: 'zzz unknown', keyword: 'zzz unknown' },
  ]
  const rows = metricsRows(
    sent,
    [
      {
        keyword: 'drain cleaning austin',
        spell: null,
        search_volume: 880,
        cpc: 14.3712,
        competition: 'HIGH',
        competition_index: 78,
        low_top_of_page_bid: 6.1,
        high_top_of_page_bid: 21.9,
        monthly_searches: [
          { year: 2026, month: 9, search_volume: 880 },
          { year: 2026, month: 10, search_volume: 1000 },
          { year: 2026, month: 10, search_volume: 5 },
          { year: 1999, month: 1, search_volume: 3 },
        ],
      },
      // Google Ads answered for the corrected spelling.
      { keyword: 'plumber austin', spell: 'plumbr austin', search_volume: 90, competition: 'weird', competition_index: 140, cpc: -1 },
    ],
    [
      { keyword: 'drain cleaning austin', keyword_difficulty: 23 },
      { keyword: 'plumbr austin', keyword_difficulty: null },
    ],
  )
  t.same(
    rows.map((r) => r.keyword_key),
    sent.map((k) => k.keyword_key),
    'every phrase, in order',
  )
  t.same(rows[0], {
    keyword_key: 'drain cleaning austin',
    keyword: 'Drain Cleaning, Austin',
    spell: null,
    search_volume: 880,
    cpc: 14.3712,
    competition: 'high',
    competition_index: 78,
    low_top_of_page_bid: 6.1,
    high_top_of_page_bid: 21.9,
    difficulty: 23,
    monthly_searches: [
      { year: 2026, month: 10, search_volume: 1000 },
      { year: 2026, month: 9, search_volume: 880 },
    ],
  })
  t.equal(rows[1]!.search_volume, 90, 'matched by the corrected spelling')
  t.equal(rows[1]!.spell, 'plumbr austin')
  t.equal(rows[1]!.competition, null, 'an unknown level is unknown')
  t.equal(rows[1]!.competition_index, 100, 'an index is at most 100')
  t.equal(rows[1]!.cpc, null, 'a negative cost is unknown')
  t.same(rows[2], { keyword_key: 'zzz unknown', keyword: 'zzz unknown', spell: null, ...valuesOf(undefined, null) }, 'no data: nulls')
  t.equal(metricsRows(sent, [], null)[0]!.difficulty, null, 'Labs not asked: difficulty null')
})

const row = (key: string, volume: number | null = 100): KeywordMetricsRow => ({
  keyword_key: key,
  keyword: key,
  spell: null,
  ...valuesOf(volume === null ? undefined : { search_volume: volume }, null),
})
const summary: FetchSummary = {
  difficulty: 'fetched',
  difficulty_error: null,
  attempts: 2,
  provider_calls: 3,
  cost_usd: 0.0852,
  last_error: null,
}
const FETCH = '6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c30'
const outage: ProviderFailure = {
  code: 'metrics_provider_unavailable',
  message: 'Internal Error.',
  http_status: 500,
  provider_status: 50000,
}

t.test('a fetch records its rows in parts of 250, then its summary; the last row of a phrase wins', async (t) => {
  const rows = Array.from({ length: 600 }, (_, i) => row(`phrase ${i}`, i % 3 === 0 ? null : i))
  const given = [...rows, row('phrase 1', 7)]
  // The repeated phrase moves to the end with its last numbers.
  const unique = [rows[0]!, ...rows.slice(2), row('phrase 1', 7)]
  const part = (from: number, to: number): FetchEvent => ({
    type: 'KeywordMetricsRecorded',
    data: { fetch_id: FETCH, ...US, source: 'dataforseo', rows: unique.slice(from, to) },
  })
  const decided = spec(metricsFetch)()
    .when({ type: 'RecordMetrics', fetch_id: FETCH, source: 'dataforseo', location: US, rows: given, summary })
    .then(t, [
      part(0, 250),
      part(250, 500),
      part(500, 600),
      {
        type: 'KeywordMetricsFetchCompleted',
        data: { fetch_id: FETCH, ...US, source: 'dataforseo', keywords: 600, with_data: 400, ...summary },
      },
    ])
  t.equal(decided.length, 4)
})

t.test('a fetch ends once: rows or failure, never both, and a repeat records nothing', async (t) => {
  const completed = metricsFetch.decide(
    { type: 'RecordMetrics', fetch_id: FETCH, source: 'recorded', location: GB, rows: [row('roof repair leeds')], summary },
    metricsFetch.initialState(),
  )
  spec(metricsFetch)(...completed)
    .when({ type: 'RecordMetrics', fetch_id: FETCH, source: 'recorded', location: GB, rows: [row('roof repair leeds')], summary })
    .thenNothingHappens(t)
  spec(metricsFetch)(...completed)
    .when({
      type: 'RecordFailure',
      fetch_id: FETCH,
      location: GB,
      keywords: [],
      error: outage,
      attempts: 4,
      provider_calls: 4,
      cost_usd: null,
    })
    .thenNothingHappens(t)
  const failure = {
    type: 'RecordFailure' as const,
    fetch_id: FETCH,
    location: US,
    keywords: [
      { keyword_key: 'drain cleaning austin', keyword: 'drain cleaning austin' },
      { keyword_key: 'drain cleaning austin', keyword: 'Drain cleaning Austin' },
    ],
    error: outage,
    attempts: 4,
    provider_calls: 4,
    cost_usd: null,
  }
  const failed = spec(metricsFetch)()
    .when(failure)
    .then(t, [
      {
        type: 'KeywordMetricsFetchFailed',
        data: {
          fetch_id: FETCH,
          ...US,
          keywords: [{ keyword_key: 'drain cleaning austin', keyword: 'Drain cleaning Austin' }],
          error: outage,
          attempts: 4,
          provider_calls: 4,
          cost_usd: null,
        },
      },
    ])
  spec(metricsFetch)(...failed)
    .when({ type: 'RecordMetrics', fetch_id: FETCH, source: 'dataforseo', location: US, rows: [row('drain cleaning austin')], summary })
    .thenNothingHappens(t)
  spec(metricsFetch)()
    .when({ type: 'RecordMetrics', fetch_id: FETCH, source: 'recorded', location: US, rows: [], summary })
    .thenThrows(t, 'validation_failed')
  spec(metricsFetch)()
    .when({
      type: 'RecordMetrics',
      fetch_id: FETCH,
      source: 'recorded',
      location: US,
      rows: Array.from({ length: 1001 }, (_, i) => row(`p ${i}`)),
      summary,
    })
    .thenThrows(t, 'validation_failed')
})

t.test("a refresh request names the client's distinct phrases in its market; none: no event", async (t) => {
  spec(metricsRefresh)()
    .when({
      type: 'RequestRefresh',
      client_id: 34,
      location: US,
      keyword_keys: ['drain cleaning austin', 'plumber near me', 'drain cleaning austin'],
    })
    .then(t, [
      {
        type: 'KeywordMetricsRefreshRequested',
        data: { client_id: 34, ...US, keyword_keys: ['drain cleaning austin', 'plumber near me'] },
      },
    ])
  spec(metricsRefresh)().when({ type: 'RequestRefresh', client_id: 34, location: US, keyword_keys: [] }).thenNothingHappens(t)
  t.equal(metricsRefresh.streamOf(34), 'keyword_metrics_refresh-34')
  t.equal(metricsFetch.streamOf(FETCH), `keyword_metrics_fetch-${FETCH}`)
})
