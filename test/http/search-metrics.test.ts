/**
 * Keyword metrics through HTTP, without the processor: what needs metrics (unique per organization ×
 * normalized text × market, missing first, stale by the clock, refresh requests), numbers a caller records,
 * the reads that show them per keyword and per client, the fetch log, the client's market (its setting and
 * locations), validation, and another organization's records answering like missing ones.
 */
import t from 'tap'
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { writeOrgExport } from '../../processors/exports/write-org-export.js'
import { startTestSystem } from '../support/system.js'
import { unzip } from '../support/zip.js'
import { handClock } from './aeo-runs-helpers.js'
import { orgWithKey } from './helpers.js'

const DAY = 86_400_000

t.test('keyword metrics, recorded by a caller and read back', async (t) => {
  const clock = handClock('2026-11-02T06:00:00.000Z')
  const ts = await startTestSystem(t, { clock: clock.now })
  const acme = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const call = <T = any>(method: string, body: unknown, key = acme.key) => ts.call<T>(method, body, key)
  const client = (name: string, extra: Record<string, unknown> = {}, key = acme.key) =>
    call<number>('add_client', { client: { name, website_url: `https://${name.toLowerCase()}.example.com`, ...extra } }, key)
  const plumbers = await client('Plumbers', { locations: ['Austin, TX'] })
  const drains = await client('Drains', { locations: [{ city: 'Dallas', state: 'TX', country: 'US' }] })
  const roofers = await client('Roofers', { locations: ['Leeds'], settings: { keyword_metrics_country: 'GB' } })
  const paused = await client('Paused', { status: 'paused' })
  const foreign = await client('Foreign', {}, other.key)
  const add = (clientId: number, keyword: string, key = acme.key) =>
    call<number>('add_keyword', { keyword: { client_id: clientId, keyword } }, key)
  const drain = await add(plumbers, 'Drain cleaning, Austin')
  const nearMe = await add(plumbers, 'plumber near me')
  const shared = await add(drains, 'drain cleaning austin') // the same phrase, another client
  const roof = await add(roofers, 'roof repair leeds')
  const gone = await add(plumbers, 'sewer line repair')
  await call('delete_keyword', { keyword_id: gone })
  await add(paused, 'paused phrase')
  const long = await add(plumbers, 'one two three four five six seven eight nine ten eleven words')
  await add(foreign, 'drain cleaning austin', other.key)

  t.test('before any numbers: everything is missing, unique per phrase and market', async (t) => {
    const needed = await call<any[]>('get_unique_keywords_needing_metrics', {})
    t.same(
      needed.map((n) => [n.keyword_key, n.location_code, n.reason]),
      [
        ['drain cleaning austin', 2840, 'missing'],
        ['plumber near me', 2840, 'missing'],
        ['roof repair leeds', 2826, 'missing'],
        ['one two three four five six seven eight nine ten eleven words', 2840, 'missing'],
      ],
      'active keywords of active clients, oldest first; deleted keywords and paused clients left out',
    )
    t.same(needed[0], {
      org_id: acme.orgId,
      keyword: 'Drain cleaning, Austin',
      keyword_key: 'drain cleaning austin',
      location_code: 2840,
      location_name: 'United States',
      language_code: 'en',
      keyword_ids: [drain, shared],
      client_ids: [plumbers, drains],
      reason: 'missing',
      fetched_at: null,
      last_error_code: null,
    })
    t.same(needed[2].location_name, 'United Kingdom', "the client's setting chose its market")
    const limited = await call<any[]>('get_unique_keywords_needing_metrics', { limit: 1, exclude_keywords: ['DRAIN cleaning austin!'] })
    t.same(
      limited.map((n) => n.keyword_key),
      ['plumber near me'],
      'exclude_keywords compared like keywords, then the limit',
    )
    const theirs = await call<any[]>('get_unique_keywords_needing_metrics', {}, other.key)
    t.same(
      theirs.map((n) => [n.org_id, n.keyword_ids]),
      [[other.orgId, [theirs[0].keyword_ids[0]]]],
      "another organization's phrase is its own",
    )
    const metrics = await call('get_keyword_metrics', { keyword_id: drain })
    t.same(metrics, {
      keyword_id: drain,
      client_id: plumbers,
      keyword: 'Drain cleaning, Austin',
      location_code: 2840,
      location_name: 'United States',
      language_code: 'en',
      search_volume: null,
      cpc: null,
      competition: null,
      competition_index: null,
      low_top_of_page_bid: null,
      high_top_of_page_bid: null,
      difficulty: null,
      monthly_searches: [],
      spell: null,
      source: null,
      fetched_at: null,
      status: 'missing',
      refresh_requested_at: null,
      last_error: null,
    })
  })

  t.test('a caller records numbers: both clients sharing the phrase see them', async (t) => {
    const recorded = await call('record_keyword_metrics', {
      location_code: 2840,
      metrics: [
        {
          keyword: 'drain cleaning  AUSTIN',
          search_volume: 880,
          cpc: 14.37,
          competition: 'high',
          competition_index: 78,
          difficulty: 23,
          monthly_searches: [
            { year: 2026, month: 9, search_volume: 880 },
            { year: 2026, month: 10, search_volume: 1000 },
          ],
        },
        { keyword: 'plumber near me', search_volume: 5400 },
      ],
    })
    t.match(recorded, { recorded: 2, location_code: 2840, location_name: 'United States', language_code: 'en' })
    t.match(recorded.fetch_id, /^[0-9a-f-]{36}$/)
    const mine = await call('get_keyword_metrics', { keyword_id: drain })
    t.match(mine, {
      search_volume: 880,
      cpc: 14.37,
      competition: 'high',
      competition_index: 78,
      difficulty: 23,
      low_top_of_page_bid: null,
      source: 'recorded',
      fetched_at: '2026-11-02T06:00:00.000Z',
      status: 'fresh',
    })
    t.same(
      mine.monthly_searches,
      [
        { year: 2026, month: 10, search_volume: 1000 },
        { year: 2026, month: 9, search_volume: 880 },
      ],
      'newest month first',
    )
    t.match(
      await call('get_keyword_metrics', { keyword_id: shared }),
      { client_id: drains, search_volume: 880 },
      'shared by the other client',
    )
    t.match(await call('get_keyword_metrics', { keyword_id: roof }), { status: 'missing' }, 'another market is not touched')
    const forClient = await call<any[]>('get_keyword_metrics_for_client', { client_id: plumbers })
    t.same(
      forClient.map((m) => [m.keyword_id, m.search_volume, m.status]),
      [
        [drain, 880, 'fresh'],
        [nearMe, 5400, 'fresh'],
        [long, null, 'missing'],
      ],
      "the client's active keywords, in the order added",
    )
    t.same(
      (await call<any[]>('get_keyword_metrics_for_client', { client_id: plumbers, limit: 1, offset: 1 })).map((m) => m.keyword_id),
      [nearMe],
      'paged',
    )
    const needed = await call<any[]>('get_unique_keywords_needing_metrics', {})
    t.same(
      needed.map((n) => n.keyword_key),
      ['roof repair leeds', 'one two three four five six seven eight nine ten eleven words'],
      'what was recorded is no longer needed',
    )
    const fetches = await call<any[]>('list_keyword_metrics_fetches', {})
    t.same(fetches, [
      {
        fetch_id: recorded.fetch_id,
        source: 'recorded',
        status: 'succeeded',
        location_code: 2840,
        location_name: 'United States',
        language_code: 'en',
        keywords: 2,
        with_data: 2,
        difficulty: 'not_requested',
        difficulty_error: null,
        attempts: 1,
        provider_calls: 0,
        cost_usd: null,
        error: null,
        recorded_at: '2026-11-02T06:00:00.000Z',
      },
    ])
    t.same(await call('list_keyword_metrics_fetches', {}, other.key), [], "another organization's log is empty")
    t.same(await call('list_keyword_metrics_fetches', { status: 'failed' }), [], 'filtered by status')
  })

  t.test('numbers age: stale after the configured 30 days; a refresh request wants them at once', async (t) => {
    clock.advance(30 * DAY)
    t.match(await call('get_keyword_metrics', { keyword_id: drain }), { status: 'fresh' }, '30 days: still fresh')
    clock.advance(1000)
    t.match(await call('get_keyword_metrics', { keyword_id: drain }), { status: 'stale' })
    const needed = await call<any[]>('get_unique_keywords_needing_metrics', {})
    t.same(
      needed.map((n) => [n.keyword_key, n.reason]),
      [
        ['roof repair leeds', 'missing'],
        ['one two three four five six seven eight nine ten eleven words', 'missing'],
        ['drain cleaning austin', 'stale'],
        ['plumber near me', 'stale'],
      ],
      'missing first, then the stale',
    )
    await call('record_keyword_metrics', { location_code: 2840, metrics: [{ keyword: 'drain cleaning austin', search_volume: 900 }] })
    clock.advance(DAY)
    const refresh = await call('refresh_keyword_metrics', { client_id: drains })
    t.same(refresh, { client_id: drains, keywords: 1, location_code: 2840, location_name: 'United States', language_code: 'en' })
    const mine = await call('get_keyword_metrics', { keyword_id: drain })
    t.match(mine, { status: 'refresh_requested', search_volume: 900, refresh_requested_at: clock.now().toISOString() })
    const after = await call<any[]>('get_unique_keywords_needing_metrics', {})
    t.same(
      after.map((n) => [n.keyword_key, n.reason]),
      [
        ['roof repair leeds', 'missing'],
        ['one two three four five six seven eight nine ten eleven words', 'missing'],
        ['drain cleaning austin', 'refresh_requested'],
        ['plumber near me', 'stale'],
      ],
    )
    const empty = await client('Empty')
    t.match(await call('refresh_keyword_metrics', { client_id: empty }), { keywords: 0 }, 'a client without keywords: nothing to refresh')
  })

  t.test("the market follows the client's setting and locations", async (t) => {
    t.match(await call('get_keyword_metrics', { keyword_id: roof }), { location_code: 2826, location_name: 'United Kingdom' })
    await call('set_client_setting', { client_id: roofers, key: 'keyword_metrics_country', value: 'Ireland' })
    t.match(await call('get_keyword_metrics', { keyword_id: roof }), { location_code: 2372, location_name: 'Ireland', status: 'missing' })
    await call('record_keyword_metrics', { location_code: 2372, metrics: [{ keyword: 'roof repair leeds', search_volume: 10 }] })
    t.match(await call('get_keyword_metrics', { keyword_id: roof }), { search_volume: 10, status: 'fresh' })
  })

  t.test('refused: unknown markets, empty or wordless phrases, a platform key without org_id', async (t) => {
    const refused = async (method: string, body: unknown, key: string, status: number, code: string) => {
      const response = await ts.rpc(method, body, key)
      t.equal(response.statusCode, status, `${method} ${JSON.stringify(body).slice(0, 60)}: ${status}`)
      t.equal(response.json().code, code)
    }
    await refused('record_keyword_metrics', { location_code: 1026201, metrics: [{ keyword: 'x' }] }, acme.key, 400, 'validation_failed')
    await refused('record_keyword_metrics', { location_code: 2840, metrics: [] }, acme.key, 400, 'validation_failed')
    await refused('record_keyword_metrics', { location_code: 2840, metrics: [{ keyword: '???' }] }, acme.key, 400, 'validation_failed')
    await refused(
      'record_keyword_metrics',
      { location_code: 2840, metrics: [{ keyword: 'x', difficulty: 101 }] },
      acme.key,
      400,
      'validation_failed',
    )
    await refused(
      'record_keyword_metrics',
      { location_code: 2840, metrics: [{ keyword: 'x', volume: 1 }] },
      acme.key,
      400,
      'validation_failed',
    )
    await refused('record_keyword_metrics', { location_code: 2840, metrics: [{ keyword: 'x' }] }, ts.platformKey, 400, 'org_id_required')
    const platform = await ts.call('record_keyword_metrics', { org_id: other.orgId, location_code: 2840, metrics: [{ keyword: 'x' }] })
    t.equal(platform.recorded, 1, 'a platform key names the organization')
  })

  t.test("another organization's keyword and client answer like missing ones", async (t) => {
    for (const [method, body] of [
      ['get_keyword_metrics', { keyword_id: drain }],
      ['get_keyword_metrics_for_client', { client_id: plumbers }],
      ['refresh_keyword_metrics', { client_id: plumbers }],
    ] as const) {
      const theirs = await ts.rpc(method, body, other.key)
      const missing = await ts.rpc(method, 'keyword_id' in body ? { keyword_id: 999_999 } : { client_id: 999_999 }, other.key)
      t.equal(theirs.statusCode, 404, `${method}: 404`)
      t.equal(theirs.json().code, 'not_found')
      t.equal(missing.statusCode, 404)
      t.same(Object.keys(theirs.json()).sort(), Object.keys(missing.json()).sort(), `${method}: the same envelope as a missing one`)
    }
    const deleted = await call<number>('add_client', { client: { name: 'Closed', website_url: 'https://closed.example.com' } })
    await call('set_client_status', { client_id: deleted, status: 'deleted' })
    const response = await ts.rpc('refresh_keyword_metrics', { client_id: deleted }, acme.key)
    t.equal(response.json().code, 'client_deleted', 'a deleted client takes no refresh')
  })

  t.test("the organization's export holds its metrics and fetches, and nothing of another organization", async (t) => {
    const blobs = new PostgresBlobStore(ts.system.database.db, clock.now)
    const written = await writeOrgExport({
      db: ts.system.database.db,
      blobs,
      orgId: acme.orgId,
      jobId: 1,
      path: `exports/${acme.orgId}/metrics-test.zip`,
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 7 * DAY),
      signal: new AbortController().signal,
      progress: async () => {},
      cancelRequested: async () => false,
    })
    const opened = await blobs.open(written.info.path)
    const chunks: Buffer[] = []
    for await (const chunk of opened!.body) chunks.push(chunk as Buffer)
    const files = await unzip(Buffer.concat(chunks))
    const rows = (name: string) => JSON.parse(files.get(`tables/${name}.json`)!.toString('utf8')) as Record<string, unknown>[]
    const metrics = rows('keyword_metrics')
    t.same(
      metrics.map((m) => [m.org_id, m.keyword_key, m.location_code]).sort(),
      [
        [acme.orgId, 'drain cleaning austin', 2840],
        [acme.orgId, 'plumber near me', 2840],
        [acme.orgId, 'roof repair leeds', 2372],
      ],
      "the organization's rows only",
    )
    t.match(
      metrics.find((m) => m.keyword_key === 'drain cleaning austin'),
      { search_volume: 900, source: 'recorded', monthly_searches: [] },
    )
    t.equal(rows('keyword_metrics_fetches').length, 3, 'every fetch of the organization')
    t.ok(files.has('tables/keyword_metrics.csv'))
  })
})
