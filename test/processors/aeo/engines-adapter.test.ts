import t from 'tap'
import { approximateLocation, retryableStatus, retryAfterMs, SourceSet } from '../../../processors/aeo/engines/adapter.js'
import { createEngineAdapters } from '../../../processors/aeo/engines/index.js'

const headers = (h: Record<string, string>) => new Headers(h)

t.test('retryAfterMs reads retry-after-ms, seconds and HTTP dates', async (t) => {
  t.equal(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' })), 1500)
  t.equal(retryAfterMs(headers({ 'retry-after': '9' })), 9000)
  t.equal(retryAfterMs(headers({ 'retry-after': '0.5' })), 500)
  const now = Date.parse('2026-11-22T04:00:00Z')
  t.equal(
    retryAfterMs(headers({ 'retry-after': 'Sun, 22 Nov 2026 04:00:30 GMT' }), () => now),
    30_000,
  )
  t.equal(
    retryAfterMs(headers({ 'retry-after': 'Sun, 22 Nov 2026 03:00:00 GMT' }), () => now),
    0,
    'a date in the past: no wait',
  )
  t.equal(retryAfterMs(headers({ 'retry-after': 'soon' })), undefined)
  t.equal(retryAfterMs(headers({})), undefined)
  t.equal(retryAfterMs(undefined), undefined)
})

t.test('retryable statuses: timeouts, conflicts, rate limits, provider failures, no status at all', async (t) => {
  for (const status of [undefined, 408, 409, 429, 500, 502, 503, 529]) t.equal(retryableStatus(status), true, String(status))
  for (const status of [400, 401, 403, 404, 413, 422]) t.equal(retryableStatus(status), false, String(status))
})

t.test('approximateLocation: US states by code or name, anything else as a region, none for any', async (t) => {
  t.same(approximateLocation('TX'), { region: 'Texas', country: 'US' })
  t.same(approximateLocation(' new york '), { region: 'New York', country: 'US' })
  t.same(approximateLocation('Ontario'), { region: 'Ontario' })
  t.equal(approximateLocation('any'), undefined)
  t.equal(approximateLocation(''), undefined)
  t.equal(approximateLocation(null), undefined)
})

t.test('SourceSet: one source per URL in first-seen order, first title kept, cited never listed as retrieved', async (t) => {
  const cited = new SourceSet()
  cited.add('https://a.example/', 'A')
  cited.add('https://a.example/', 'A again')
  cited.add('https://b.example/')
  cited.add('https://b.example/', 'B')
  cited.add('  ')
  cited.add(undefined)
  t.same(cited.list(), [
    { url: 'https://a.example/', title: 'A' },
    { url: 'https://b.example/', title: 'B' },
  ])
  const retrieved = new SourceSet()
  retrieved.add('https://b.example/')
  retrieved.add('https://c.example/', '')
  t.same(retrieved.except(cited), [{ url: 'https://c.example/' }])
})

t.test('createEngineAdapters: one adapter per engine with an API key', async (t) => {
  t.same(
    createEngineAdapters({}).map((a) => a.engine),
    [],
  )
  const engines = createEngineAdapters({
    claude: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9', model: 'm' },
    gemini: { apiKey: 'k', baseUrl: 'http://127.0.0.1:9', model: 'm' },
  })
  t.same(
    engines.map((a) => a.engine),
    ['claude', 'gemini'],
  )
})
