/**
 * GET /metrics: Prometheus text from prom-client. Requests by method, route and status
 * with latency histograms; the projections' lag behind the log; the job and webhook work queues; the log's
 * event count, whose rate is the event store's append rate. Open to loopback scrapers only, unless
 * METRICS_TOKEN is set, which every scraper must then send as a bearer token.
 */
import t from 'tap'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/**
 * The Prometheus text exposition format (0.0.4), strictly: every line is a comment (# HELP / # TYPE) or a
 * sample `name{label="value",…} number`; anything else fails the test. Returns the samples and the TYPE of
 * each metric family.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      types.set(type[1]!, type[2]!)
      continue
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) continue
    // Values as Prometheus reads them (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan").
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|(?:nan|[+-]inf))$/i.exec(line)
    if (!sample) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    for (const [, key, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!.replace(/\\(.)/g, '$1')
    samples.push({ name: sample[1]!, labels, value: /^nan$/i.test(sample[3]!) ? NaN : Number(sample[3]!.replace(/inf/i, 'Infinity')) })
  }
  return { samples, types }
}

async function scrape(ts: TestSystem, headers: Record<string, string> = {}) {
  const response = await ts.app.inject({ method: 'GET', url: '/metrics', headers })
  if (response.statusCode !== 200) throw new Error(`/metrics answered ${response.statusCode}: ${response.body}`)
  const parsed = parseExposition(response.body)
  const value = (name: string, labels: Record<string, string> = {}) =>
    parsed.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value
  return { ...parsed, value, contentType: String(response.headers['content-type']) }
}

t.test('requests are counted by method, route and status, with latency histograms', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Metrics')
  const before = await scrape(ts)
  t.match(before.contentType, /^text\/plain; version=0\.0\.4/, 'the Prometheus text content type')
  t.equal(before.types.get('rankrelay_http_requests_total'), 'counter')
  t.equal(before.types.get('rankrelay_http_request_duration_seconds'), 'histogram')

  for (const name of ['One', 'Two', 'Three']) await ts.call('add_client', clientPayload(name), org.key)
  const missing = await ts.rpc('get_client', { client_id: 999_999 }, org.key)
  t.equal(missing.statusCode, 404)
  await ts.app.inject({ method: 'GET', url: '/api/v1/health' })
  await ts.app.inject({ method: 'GET', url: '/no/such/route/12345' })

  const after = await scrape(ts)
  const added = { method: 'POST', route: '/api/v1/rpc/add_client', status: '200' }
  t.equal(
    (after.value('rankrelay_http_requests_total', added) ?? 0) - (before.value('rankrelay_http_requests_total', added) ?? 0),
    3,
    'three add_client 200s',
  )
  t.equal(
    after.value('rankrelay_http_requests_total', { method: 'POST', route: '/api/v1/rpc/get_client', status: '404' }),
    1,
    'the 404 under its RPC',
  )
  t.ok((after.value('rankrelay_http_requests_total', { method: 'GET', route: '/api/v1/health', status: '200' }) ?? 0) >= 1, 'health')
  // Unmatched URLs share one label, so a scanner cannot blow up the number of series.
  t.equal(
    after.value('rankrelay_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    1,
    'an unknown URL counts as unmatched',
  )
  t.notOk(
    after.samples.some((s) => s.labels.route?.includes('12345')),
    'the URL itself is no label',
  )

  t.equal(
    after.value('rankrelay_http_request_duration_seconds_count', added),
    after.value('rankrelay_http_requests_total', added) ?? 0,
    'one observation per request',
  )
  t.ok((after.value('rankrelay_http_request_duration_seconds_sum', added) ?? 0) > 0, 'latency summed')
  const buckets = after.samples.filter(
    (s) => s.name === 'rankrelay_http_request_duration_seconds_bucket' && s.labels.route === added.route && s.labels.status === '200',
  )
  t.ok(buckets.length >= 5, 'several latency buckets')
  t.equal(
    buckets.find((b) => b.labels.le === '+Inf')?.value,
    after.value('rankrelay_http_request_duration_seconds_count', added),
    '+Inf bucket holds every request',
  )
  // Process metrics come with prom-client's defaults.
  t.ok(after.value('process_cpu_seconds_total') !== undefined, 'process metrics')
})

t.test('projection lag, the log’s event count and the work queues', async (t) => {
  const ts = await startTestSystem(t, { readYourWritesTimeoutMs: 100 })
  const org = await orgWithKey(ts, 'Lag')
  const first = await scrape(ts)
  t.equal(first.types.get('rankrelay_projection_lag_events'), 'gauge')
  t.equal(first.types.get('rankrelay_projection_lag_seconds'), 'gauge')
  t.equal(first.types.get('rankrelay_event_store_events_total'), 'counter')
  t.equal(first.value('rankrelay_projection_lag_events', { group: 'main' }), 0, 'caught up')
  t.equal(first.value('rankrelay_projection_lag_seconds', { group: 'main' }), 0)
  t.equal(first.value('rankrelay_event_store_events_total'), await eventCount(ts), 'every event of the log')

  // Projections stopped: writes still append, and the lag says how far behind the read models are.
  await ts.system.runner.stop()
  await ts.call('add_client', clientPayload('Behind'), org.key)
  await ts.call('add_client', clientPayload('Further'), org.key)
  const behind = await scrape(ts)
  const appended = (await eventCount(ts)) - (first.value('rankrelay_event_store_events_total') ?? 0)
  t.ok(appended >= 2, `the writes appended ${appended} events`)
  t.equal(behind.value('rankrelay_projection_lag_events', { group: 'main' }), appended, 'lag in events')
  t.ok((behind.value('rankrelay_projection_lag_seconds', { group: 'main' }) ?? 0) > 0, 'lag in seconds: the oldest unapplied event’s age')
  t.equal(behind.value('rankrelay_event_store_events_total'), await eventCount(ts), 'the count includes unapplied events')

  ts.system.runner.start()
  const deadline = Date.now() + 10_000
  while ((await scrape(ts)).value('rankrelay_projection_lag_events', { group: 'main' }) !== 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50))
  t.equal((await scrape(ts)).value('rankrelay_projection_lag_events', { group: 'main' }), 0, 'caught up again')

  // The work tables as the job runner and the webhook dispatcher see them (the processors are not running
  // here, so rows stay where they are put).
  const queues = await scrape(ts)
  for (const status of ['queued', 'running']) t.equal(queues.value('rankrelay_job_queue_depth', { status }), 0, `no ${status} job`)
  for (const status of ['pending', 'in_flight'])
    t.equal(queues.value('rankrelay_webhook_queue_depth', { status }), 0, `no ${status} delivery`)
  const pool = ts.database.pool
  await pool.query(
    `insert into job_work (job_id, org_id, kind, payload, status) values (9001, $1, 'ad_copy', '{}', 'queued'), (9002, $1, 'ad_copy', '{}', 'queued'), (9003, $1, 'ad_copy', '{}', 'running')`,
    [org.orgId],
  )
  await pool.query(
    `insert into webhook_events (event_id, org_id, name, data, created_at, in_feed) values ('e-metrics', $1, 'client.created', '{}', now(), true)`,
    [org.orgId],
  )
  await pool.query(
    // Requested sends (send_test_webhook's kind of row): several may share a webhook and event.
    `insert into webhook_deliveries (id, webhook_id, org_id, event_number, requested, status, next_attempt_at, created_at, finished_at)
     select n, 1, $1, (select number from webhook_events where event_id = 'e-metrics'), 'test', s, now(), now(), f
       from (values (9101, 'pending', null::timestamptz), (9102, 'in_flight', null), (9103, 'pending', null), (9104, 'delivered', now())) as v(n, s, f)`,
    [org.orgId],
  )
  const filled = await scrape(ts)
  t.equal(filled.value('rankrelay_job_queue_depth', { status: 'queued' }), 2)
  t.equal(filled.value('rankrelay_job_queue_depth', { status: 'running' }), 1)
  t.equal(filled.value('rankrelay_webhook_queue_depth', { status: 'pending' }), 2, 'open deliveries only')
  t.equal(filled.value('rankrelay_webhook_queue_depth', { status: 'in_flight' }), 1)
})

t.test('who may scrape: loopback without METRICS_TOKEN; with it, only the bearer of the token', async (t) => {
  const open = await startTestSystem(t)
  const remote = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.5' })
  const body = expectError(t, remote, 403, 'metrics_forbidden', 'a remote scraper without a token')
  t.match(body.hint, /METRICS_TOKEN/)
  t.notMatch(remote.body, /rankrelay_http_requests_total/)
  // A reverse proxy on the same host forwards outside requests from loopback: it says so, and is refused.
  const proxied = await open.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.5' } })
  expectError(t, proxied, 403, 'metrics_forbidden', 'forwarded by a local proxy')
  t.equal((await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode, 200, 'IPv6 loopback')

  const guarded = await startTestSystem(t, { metricsToken: 'scrape-secret-1234567890' })
  const get = (headers: Record<string, string>, remoteAddress = '203.0.113.5') =>
    guarded.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress })
  t.equal((await get({ authorization: 'Bearer scrape-secret-1234567890' })).statusCode, 200, 'the token opens it from anywhere')
  expectError(t, await get({ authorization: 'Bearer scrape-secret-123456789X' }), 403, 'metrics_forbidden', 'a wrong token')
  expectError(t, await get({}), 403, 'metrics_forbidden', 'no token')
  expectError(t, await get({}, '127.0.0.1'), 403, 'metrics_forbidden', 'with a token configured, loopback needs it too')
  // An API key is not a metrics credential.
  expectError(t, await get({ authorization: `Bearer ${guarded.platformKey}` }), 403, 'metrics_forbidden', 'a platform key')
})
