/**
 * The rank providers against local stand-ins speaking DataForSEO's and SerpApi's wire formats: what a results
 * page is read into (the client's position and URL, competitors, the map pack, the featured snippet, People
 * Also Ask and the AI Overview's citations), what each provider is asked, and how each failure is classed and
 * retried (a 401 or 402 never is; a 5xx, a timeout or a 429 is, with backoff, until it answers or the tries
 * run out).
 */
import t, { type Test } from 'tap'
import { rankRowOf } from '../../domain/search/rank-checks/serp.js'
import { searchWithRetries } from '../../processors/search/rank-checks/call-with-retries.js'
import { dataForSeoProvider } from '../../processors/search/rank-checks/providers/dataforseo.js'
import { rankProviderFor } from '../../processors/search/rank-checks/providers/index.js'
import type { RankProvider } from '../../processors/search/rank-checks/providers/port.js'
import { serpApiProvider } from '../../processors/search/rank-checks/providers/serpapi.js'
import { RateLimiter } from '../../processors/search/rank-checks/rate-limiter.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS } from '../../processors/search/settings.js'
import { LIVE_ADVANCED_PATH, startDataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import type { SerpFixture } from '../support/stand-ins/serp-fixture.js'
import { startSerpApiStandIn } from '../support/stand-ins/serpapi.js'

const austin = { name: 'Austin, TX', city: 'Austin', state: 'TX', country: '' }
const client = { websiteUrl: 'https://acmeplumbing.example', name: 'Acme Plumbing' }

/** A page where the client ranks 3rd (and 7th), is in the map pack and is cited by the AI Overview. */
const page: SerpFixture = {
  organic: [
    'https://www.rivals.example/drain-cleaning',
    'https://yelp.example/austin-plumbers',
    'https://www.acmeplumbing.example/services/drain-cleaning/',
    'https://www.rivals.example/other',
    'https://angi.example/drains',
    'https://homeadvisor.example/x',
    'https://blog.acmeplumbing.example/tips',
    'https://notacmeplumbing.example/',
    'https://c9.example/',
    'https://c10.example/',
    'https://c11.example/',
    'https://c12.example/',
    'https://c13.example/',
  ],
  localPack: [{ title: 'Rival Rooter', url: 'https://www.rivals.example/' }, { title: 'Acme Plumbing' }],
  featuredSnippet: 'https://yelp.example/austin-plumbers',
  peopleAlsoAsk: ['How much does drain cleaning cost?'],
  aiOverview: { references: ['https://angi.example/drains', 'https://acmeplumbing.example/faq'] },
}

const policy = { maxAttempts: 4, backoffBaseMs: 5, random: () => 0.5 }
const signal = () => AbortSignal.timeout(20_000)
const task = { keyword_id: 1501, location_id: 7, device: 'mobile' as const }

function expectAcmeRow(t: Test, provider: RankProvider, got: Awaited<ReturnType<typeof searchWithRetries>>) {
  t.ok(got.ok, 'the search succeeded')
  if (!got.ok) return
  const row = rankRowOf(got.page, { task, date: '2026-11-27', source: provider.name, client, pageOf: (url) => (url ? 220 : null) })
  t.same(row, {
    keyword_id: 1501,
    location_id: 7,
    device: 'mobile',
    date: '2026-11-27',
    position: 3,
    url: 'https://www.acmeplumbing.example/services/drain-cleaning/',
    page_id: 220,
    // Distinct sites that are not the client's (www-insensitive; a subdomain is the client's; a look-alike is not), top 10.
    competitors: [
      'rivals.example',
      'yelp.example',
      'angi.example',
      'homeadvisor.example',
      'notacmeplumbing.example',
      'c9.example',
      'c10.example',
      'c11.example',
      'c12.example',
      'c13.example',
    ],
    serp_features: {
      local_pack: true,
      local_pack_includes_client: true,
      featured_snippet: true,
      featured_snippet_is_client: false,
      people_also_ask: true,
      ai_overview: true,
      ai_overview_cites_client: true,
    },
    source: provider.name,
  })
}

t.test('DataForSEO live/advanced through dataforseo-client', async (t) => {
  const standIn = await startDataForSeoSerpStandIn(t)
  const settings = { login: standIn.login, password: standIn.password, baseUrl: `${standIn.baseUrl}/` }
  const provider = dataForSeoProvider(settings, { timeoutMs: 2_000, limiter: new RateLimiter(1000) })
  standIn.pages(() => page)

  await t.test('a page is read into a rank row; the request is one task with the location by name', async (t) => {
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      policy,
      signal(),
    )
    expectAcmeRow(t, provider, got)
    t.equal(got.calls, 1)
    // As the SDK serializes it (it adds its own nulls, e.g. stop_crawl_on_match).
    t.match(standIn.tasks.at(-1), {
      keyword: 'drain cleaning austin',
      location_name: 'Austin,Texas,United States',
      language_code: 'en',
      device: 'mobile',
      depth: 100,
      load_async_ai_overview: true,
    })
  })

  await t.test('a national search asks for the country; no AI Overview, no map pack: those features are false', async (t) => {
    standIn.pages(() => ({ organic: ['https://other.example/'] }))
    const got = await searchWithRetries(provider, { keyword: 'drain cleaning', location: null, device: 'desktop' }, policy, signal())
    t.equal(standIn.searches.at(-1)?.location, 'United States')
    t.ok(got.ok)
    if (got.ok) {
      const row = rankRowOf(got.page, { task, date: '2026-11-27', source: 'dataforseo', client, pageOf: () => null })
      t.equal(row.position, null, 'not in the top 100: no position')
      t.equal(row.url, null)
      t.same(row.competitors, ['other.example'])
      t.notOk(
        row.serp_features.ai_overview ||
          row.serp_features.local_pack ||
          row.serp_features.featured_snippet ||
          row.serp_features.people_also_ask,
      )
    }
    standIn.pages(() => page)
  })

  await t.test('an outage (HTTP 500, then a task-level 40101) is retried with backoff until it answers', async (t) => {
    standIn.script({ kind: 'http', status: 500 }, { kind: 'status', statusCode: 40101, message: 'Internal SE Server Error.' })
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      policy,
      signal(),
    )
    t.ok(got.ok)
    t.equal(got.calls, 3, 'two failed calls and the one that answered')
    t.equal(got.retries, 2)
  })

  await t.test('an outage longer than the tries is returned as rank_provider_unavailable', async (t) => {
    standIn.script(...Array.from({ length: 4 }, () => ({ kind: 'http' as const, status: 503 as const })))
    const before = standIn.searches.length
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      policy,
      signal(),
    )
    t.notOk(got.ok)
    if (!got.ok) {
      t.equal(got.error.code, 'rank_provider_unavailable')
      t.match(got.error.message, /503.*50301/)
      t.notOk(got.error.fatal)
    }
    t.equal(standIn.searches.length - before, 4, 'maxAttempts calls')
  })

  await t.test('a call that never answers is cut off by the timeout and retried', async (t) => {
    standIn.script({ kind: 'hang' })
    const fast = dataForSeoProvider(settings, { timeoutMs: 200, limiter: new RateLimiter(1000) })
    const got = await searchWithRetries(fast, { keyword: 'drain cleaning austin', location: austin, device: 'mobile' }, policy, signal())
    t.ok(got.ok, 'the second try answered')
    t.equal(got.retries, 1)
  })

  await t.test("a 429 is retryable and carries the provider's Retry-After (the backoff waits it)", async (t) => {
    standIn.script({ kind: 'http', status: 429, retryAfterSeconds: 1 })
    const once = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      { ...policy, maxAttempts: 1 },
      signal(),
    )
    t.notOk(once.ok)
    if (!once.ok) {
      t.equal(once.error.code, 'rank_provider_unavailable')
      t.equal(once.error.retryAfterMs, 1000)
    }
    standIn.script({ kind: 'http', status: 429, retryAfterSeconds: 0 })
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      policy,
      signal(),
    )
    t.ok(got.ok)
    t.equal(got.retries, 1)
  })

  await t.test('401 (a wrong password) is rank_provider_unauthorized, not retried', async (t) => {
    const wrong = dataForSeoProvider({ ...settings, password: 'wrong' }, { timeoutMs: 2_000, limiter: new RateLimiter(1000) })
    const before = standIn.searches.length
    const got = await searchWithRetries(wrong, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
    t.notOk(got.ok)
    if (!got.ok) {
      t.equal(got.error.code, 'rank_provider_unauthorized')
      t.equal(got.error.status, 401)
      t.match(got.error.message, /not authorized.*40100/)
      t.ok(got.error.fatal)
    }
    t.equal(got.calls, 1)
    t.equal(standIn.searches.length, before, 'refused before any search was made')
  })

  await t.test('HTTP 402 (40200) and an in-body 40210 are rank_provider_payment_required, not retried', async (t) => {
    standIn.script({ kind: 'http', status: 402 })
    const got = await searchWithRetries(provider, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
    t.notOk(got.ok)
    if (!got.ok) t.equal(got.error.code, 'rank_provider_payment_required')
    t.equal(got.calls, 1)
    standIn.script({ kind: 'status', statusCode: 40210, message: 'Payment required. Insufficient funds.', envelope: true })
    const funds = await searchWithRetries(provider, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
    t.notOk(funds.ok)
    if (!funds.ok) {
      t.equal(funds.error.code, 'rank_provider_payment_required')
      t.match(funds.error.message, /Insufficient funds/)
    }
    t.equal(funds.calls, 1)
  })

  await t.test('a task the API rejects (40501, an invalid field) is rank_provider_rejected, not retried', async (t) => {
    standIn.script({ kind: 'status', statusCode: 40501, message: 'Invalid Field: location_name.' })
    const got = await searchWithRetries(provider, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
    t.notOk(got.ok)
    if (!got.ok) t.equal(got.error.code, 'rank_provider_rejected')
    t.equal(got.calls, 1)
  })

  await t.test('40102 (no search results) is an empty page, not a failure', async (t) => {
    standIn.script({ kind: 'status', statusCode: 40102, message: 'No Search Results.' })
    const got = await searchWithRetries(provider, { keyword: 'xyzzy plugh', location: null, device: 'desktop' }, policy, signal())
    t.ok(got.ok)
    if (got.ok) t.same(got.page.organic, [])
  })
  t.equal(LIVE_ADVANCED_PATH, '/v3/serp/google/organic/live/advanced')
})

t.test('SerpApi Google Search over plain HTTP', async (t) => {
  const standIn = await startSerpApiStandIn(t)
  const settings = { apiKey: standIn.apiKey, baseUrl: standIn.baseUrl }
  const provider = serpApiProvider(settings, { timeoutMs: 2_000, limiter: new RateLimiter(1000) })
  standIn.pages(() => page)

  await t.test('a page is read into the same rank row; the query names the location, device and 100 results', async (t) => {
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'mobile' },
      policy,
      signal(),
    )
    expectAcmeRow(t, provider, got)
    t.equal(got.calls, 1)
    const q = standIn.queries.at(-1)!
    t.same(Object.fromEntries(q), {
      engine: 'google',
      q: 'drain cleaning austin',
      location: 'Austin, Texas, United States',
      gl: 'us',
      hl: 'en',
      google_domain: 'google.com',
      device: 'mobile',
      num: '100',
      api_key: standIn.apiKey,
    })
  })

  await t.test('an AI Overview Google loads separately is fetched by its page_token: two calls', async (t) => {
    standIn.pages(() => ({ ...page, aiOverview: { references: ['https://www.acmeplumbing.example/faq'], deferred: true } }))
    const got = await searchWithRetries(
      provider,
      { keyword: 'drain cleaning austin', location: austin, device: 'desktop' },
      policy,
      signal(),
    )
    t.ok(got.ok)
    t.equal(got.calls, 2)
    t.equal(standIn.queries.at(-1)?.get('engine'), 'google_ai_overview')
    if (got.ok) t.same(got.page.aiOverview, { references: ['https://www.acmeplumbing.example/faq'] })
    standIn.pages(() => page)
  })

  await t.test('a national search sends no location, only the country', async (t) => {
    await searchWithRetries(provider, { keyword: 'drain cleaning', location: null, device: 'desktop' }, policy, signal())
    t.equal(standIn.queries.at(-1)?.get('location'), null)
    t.equal(standIn.queries.at(-1)?.get('gl'), 'us')
  })

  await t.test('a 5xx is retried; a 429 of the hourly limit too', async (t) => {
    standIn.script(
      { kind: 'http', status: 502 },
      { kind: 'http', status: 429, message: 'You have exceeded the hourly throughput limit for your plan.' },
    )
    const got = await searchWithRetries(provider, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
    t.ok(got.ok)
    t.equal(got.retries, 2)
  })

  await t.test(
    '401 is rank_provider_unauthorized; a plan out of searches (429) is rank_provider_payment_required; neither retried',
    async (t) => {
      const wrong = serpApiProvider({ ...settings, apiKey: 'nope' }, { timeoutMs: 2_000, limiter: new RateLimiter(1000) })
      const refused = await searchWithRetries(wrong, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
      t.notOk(refused.ok)
      if (!refused.ok) {
        t.equal(refused.error.code, 'rank_provider_unauthorized')
        t.match(refused.error.message, /Invalid API key/)
      }
      t.equal(refused.calls, 1)
      standIn.script({ kind: 'http', status: 429 })
      const broke = await searchWithRetries(provider, { keyword: 'x', location: null, device: 'desktop' }, policy, signal())
      t.notOk(broke.ok)
      if (!broke.ok) t.equal(broke.error.code, 'rank_provider_payment_required')
      t.equal(broke.calls, 1)
    },
  )

  await t.test('"no results" is an empty page', async (t) => {
    standIn.script({ kind: 'status', statusCode: 0, message: '' })
    const got = await searchWithRetries(provider, { keyword: 'xyzzy', location: null, device: 'desktop' }, policy, signal())
    t.ok(got.ok)
    if (got.ok) t.same(got.page, { organic: [], localPack: null, featuredSnippet: null, peopleAlsoAsk: false, aiOverview: null })
  })
})

t.test('the configured provider: DataForSEO first, then SerpApi, else none', async (t) => {
  const d = { login: 'l', password: 'p', baseUrl: 'http://127.0.0.1:9' }
  const s = { apiKey: 'k', baseUrl: 'http://127.0.0.1:9' }
  t.equal(rankProviderFor({ ...DEFAULT_SEARCH_PROVIDER_SETTINGS, dataforseo: d, serpapi: s })?.name, 'dataforseo')
  t.equal(rankProviderFor({ ...DEFAULT_SEARCH_PROVIDER_SETTINGS, serpapi: s })?.name, 'serpapi')
  t.equal(rankProviderFor(DEFAULT_SEARCH_PROVIDER_SETTINGS), null)
})

t.test('the rate limiter spaces calls of one provider', async (t) => {
  const limiter = new RateLimiter(20)
  const at: number[] = []
  const s = AbortSignal.timeout(5_000)
  await Promise.all(
    Array.from({ length: 5 }, async () => {
      await limiter.take(s)
      at.push(Date.now())
    }),
  )
  at.sort((a, b) => a - b)
  t.ok(at[4]! - at[0]! >= 180, `five calls at 20/s span at least 4 intervals of 50 ms (${at[4]! - at[0]!} ms)`)
})
