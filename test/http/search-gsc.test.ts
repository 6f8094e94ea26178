/**
 * Search Console end to end, through HTTP and the capture worker against the local stand-in: connect a
 * property with a service account key (and with an OAuth grant), capture the default range, and read it back
 * (the captures, a capture's queries, the snapshot at each level with the previous period beside it, and what
 * happens when a period is not covered). The credentials never come back: not in a read, not in the log's
 * event data, not in the organization export. Another organization's client or capture answers exactly like
 * a missing one; refused input changes nothing.
 */
import t from 'tap'
import { gscPropertyStream } from '../../domain/search/gsc/gsc-property.js'
import { unzip } from '../support/zip.js'
import { expectError, eventCount, orgWithKey, clientPayload, streamEvents, withoutIds } from './helpers.js'
import { postJob, waitForJob } from './jobs-helpers.js'
import {
  daysOf,
  DEFAULT_RANGE,
  DOMAIN_PROPERTY,
  fictionalRows,
  finished,
  gscSetup,
  metrics,
  PREVIOUS_RANGE,
  sumBy,
} from './search-gsc-support.js'

const { standIn, ts, acme, clientId } = await gscSetup(t)
const account = standIn.createServiceAccount('rankrelay-gsc')
standIn.addUser(DOMAIN_PROPERTY, account.client_email)
const seeded = [...fictionalRows(PREVIOUS_RANGE), ...fictionalRows(DEFAULT_RANGE)]
standIn.seedRows(DOMAIN_PROPERTY, seeded)
const inRange = (range: { start: string; end: string }) => seeded.filter((r) => r.date >= range.start && r.date <= range.end)

interface Capture {
  id: number
  client_id: number
  status: string
  start_date: string
  end_date: string
  trigger: string
  attempts: number
  days: number
  days_recorded: number
  row_count: number
  error: { code: string; message: string } | null
}

let captureId = 0

t.test('set_gsc_property connects a service account; the reads show its address, never the key', async (t) => {
  const view = await ts.call(
    'set_gsc_property',
    { client_id: clientId, property: ' SC-DOMAIN:RapidRooterPlumbing.example ', credentials: account, cadence: 'off' },
    acme.key,
  )
  t.match(view, {
    client_id: clientId,
    property: DOMAIN_PROPERTY,
    property_type: 'domain',
    auth_type: 'service_account',
    service_account_email: account.client_email,
    cadence: 'off',
  })
  t.same(await ts.call('get_gsc_property', { client_id: clientId }, acme.key), view, 'get_gsc_property answers the same')
  const [set] = await streamEvents(ts, gscPropertyStream(clientId))
  t.match(set, { type: 'GscPropertySet', data: { auth_type: 'service_account', sealed_credentials: /^v1\./ } })
  t.notOk(JSON.stringify(set!.data).includes('PRIVATE KEY'), 'the event holds the key sealed only')
})

t.test('run_gsc_capture queues the last 28 complete days; the worker captures them one day per call', async (t) => {
  const queued = await ts.call<{ created: boolean; capture: Capture }>('run_gsc_capture', { client_id: clientId }, acme.key)
  t.equal(queued.created, true)
  t.match(queued.capture, {
    client_id: clientId,
    start_date: DEFAULT_RANGE.start,
    end_date: DEFAULT_RANGE.end,
    trigger: 'manual',
    days: 28,
  })
  captureId = queued.capture.id
  const again = await ts.call<{ created: boolean; capture: Capture }>('run_gsc_capture', { client_id: clientId }, acme.key)
  if (again.capture.status !== 'completed') {
    t.equal(again.created, false, 'an open capture answers instead of a second one')
    t.equal(again.capture.id, captureId)
  }
  const done = await finished(ts, acme.key, captureId, t)
  const expected = inRange(DEFAULT_RANGE)
  t.match(done, { status: 'completed', attempts: 1, days_recorded: 28, row_count: expected.length, error: null })

  const tokenCalls = standIn.tokenCalls()
  t.ok(tokenCalls.length >= 1, 'a token was asked for')
  t.equal(
    tokenCalls[0]!.body.grant_type,
    'urn:ietf:params:oauth:grant-type:jwt-bearer',
    'with a signed assertion (the stand-in checked its signature)',
  )
  const calls = standIn.apiCalls()
  t.equal(calls.length, 28, 'one call per day: every day fits in one page')
  t.same(
    calls.map((c) => c.body.startDate),
    daysOf(DEFAULT_RANGE),
    'days in order',
  )
  t.match(calls[0]!, {
    path: `/webmasters/v3/sites/${encodeURIComponent(DOMAIN_PROPERTY)}/searchAnalytics/query`,
    headers: { authorization: /^Bearer ya29\./ },
    body: {
      startDate: DEFAULT_RANGE.start,
      endDate: DEFAULT_RANGE.start,
      dimensions: ['query', 'page', 'date'],
      rowLimit: 25000,
      startRow: 0,
      type: 'web',
      dataState: 'final',
    },
  })
})

t.test('the captures read back: list, last, and a capture per query', async (t) => {
  const list = await ts.call<Capture[]>('list_gsc_keyword_captures', { client_id: clientId }, acme.key)
  t.same(
    list.map((c) => c.id),
    [captureId],
  )
  t.equal((await ts.call<Capture>('get_last_gsc_keyword_capture', { client_id: clientId }, acme.key)).id, captureId)
  t.equal(await ts.call('get_last_gsc_keyword_capture', { client_id: clientId, before_id: captureId }, acme.key), null, 'none before it')

  const keywords = await ts.call<any[]>('get_gsc_capture_keywords', { capture_id: captureId }, acme.key)
  const rows = inRange(DEFAULT_RANGE)
  const byQuery = sumBy(rows, (r) => r.query)
  t.equal(keywords.length, byQuery.size, 'one entry per query')
  for (const k of keywords) {
    const pages = sumBy(
      rows.filter((r) => r.query === k.query),
      (r) => r.page,
    )
    const top = [...pages.entries()].sort(
      ([pa, a], [pb, b]) => b.clicks - a.clicks || b.impressions - a.impressions || pa.localeCompare(pb),
    )[0]![0]
    t.same(k, { query: k.query, ...metrics(byQuery.get(k.query)!), pages: pages.size, top_page: top }, k.query)
  }
  const order = keywords.map((k) => [k.clicks, k.impressions])
  t.same(
    order,
    [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]),
    'most clicks first',
  )
  const page = await ts.call<any[]>('get_gsc_capture_keywords', { capture_id: captureId, limit: 2, offset: 1 }, acme.key)
  t.same(page, keywords.slice(1, 3), 'pages')
})

t.test('get_gsc_snapshot: the period beside the previous one, at each level, and what is not covered', async (t) => {
  const period = { client_id: clientId, period_start: DEFAULT_RANGE.start, period_end: DEFAULT_RANGE.end }
  const before = await ts.call<any>('get_gsc_snapshot', { ...period, level: 'site' }, acme.key)
  t.match(before.period, {
    start: DEFAULT_RANGE.start,
    end: DEFAULT_RANGE.end,
    days: 28,
    covered_days: 28,
    uncovered: [],
    capture_ids: [captureId],
  })
  t.match(before.previous_period, { start: PREVIOUS_RANGE.start, end: PREVIOUS_RANGE.end, days: 28, covered_days: 0, capture_ids: [] })
  t.same(before.previous_period.uncovered, [PREVIOUS_RANGE], 'the previous period is not captured yet')
  t.same(before.totals.previous, { clicks: 0, impressions: 0, ctr: 0, position: null }, 'nothing counted for days no capture covers')
  t.same(before.totals.current, metrics(sumBy(inRange(DEFAULT_RANGE), () => '')!.get('')!))
  t.same(before.rows, [], 'level site: totals only')

  // The previous 28 days, captured too: the snapshot now compares.
  const second = await ts.call<{ capture: Capture }>(
    'run_gsc_capture',
    { client_id: clientId, start_date: PREVIOUS_RANGE.start, end_date: PREVIOUS_RANGE.end },
    acme.key,
  )
  t.match(await finished(ts, acme.key, second.capture.id, t), { status: 'completed', row_count: inRange(PREVIOUS_RANGE).length })

  const site = await ts.call<any>('get_gsc_snapshot', { ...period, level: 'site' }, acme.key)
  t.same(site.totals, {
    current: metrics(sumBy(inRange(DEFAULT_RANGE), () => '').get('')!),
    previous: metrics(sumBy(inRange(PREVIOUS_RANGE), () => '').get('')!),
  })
  t.match(site.previous_period, { covered_days: 28, uncovered: [], capture_ids: [second.capture.id] })

  for (const level of ['page', 'query'] as const) {
    const keyOf = (r: { page: string; query: string }) => (level === 'page' ? r.page : r.query)
    const current = sumBy(inRange(DEFAULT_RANGE), keyOf)
    const previous = sumBy(inRange(PREVIOUS_RANGE), keyOf)
    const snapshot = await ts.call<any>('get_gsc_snapshot', { ...period, level }, acme.key)
    t.equal(snapshot.rows.length, current.size, `${level}: every key`)
    for (const row of snapshot.rows) {
      t.same(
        row,
        { key: row.key, current: metrics(current.get(row.key)!), previous: previous.has(row.key) ? metrics(previous.get(row.key)!) : null },
        `${level} ${row.key}`,
      )
    }
    const clicks = snapshot.rows.map((r: any) => r.current.clicks)
    t.same(
      clicks,
      [...clicks].sort((a: number, b: number) => b - a),
      `${level}: most clicks first`,
    )
    const limited = await ts.call<any>('get_gsc_snapshot', { ...period, level, limit: 2 }, acme.key)
    t.same(limited.rows, snapshot.rows.slice(0, 2), `${level}: limit`)
  }

  // A period reaching past the captured days: only the covered days count, and the rest is named.
  const partial = await ts.call<any>(
    'get_gsc_snapshot',
    { client_id: clientId, period_start: '2026-11-20', period_end: '2026-11-26', level: 'site' },
    acme.key,
  )
  t.match(partial.period, { days: 7, covered_days: 5, uncovered: [{ start: '2026-11-25', end: '2026-11-26' }] })
  t.same(partial.totals.current, metrics(sumBy(inRange({ start: '2026-11-20', end: '2026-11-24' }), () => '').get('')!))
  t.match(partial.previous_period, { start: '2026-11-13', end: '2026-11-19', covered_days: 7, uncovered: [] })
})

t.test('an OAuth grant reads the property through the refresh-token grant at GSC_TOKEN_URL', async (t) => {
  const grant = standIn.createOAuthGrant('owner@acme-agency.example')
  standIn.addUser(DOMAIN_PROPERTY, 'owner@acme-agency.example')
  const view = await ts.call(
    'set_gsc_property',
    { client_id: clientId, property: DOMAIN_PROPERTY, credentials: grant, cadence: 'off' },
    acme.key,
  )
  t.match(view, { auth_type: 'oauth', service_account_email: null })
  const before = standIn.tokenCalls().length
  const queued = await ts.call<{ capture: Capture }>(
    'run_gsc_capture',
    { client_id: clientId, start_date: '2026-11-20', end_date: '2026-11-24' },
    acme.key,
  )
  t.match(await finished(ts, acme.key, queued.capture.id, t), {
    status: 'completed',
    row_count: inRange({ start: '2026-11-20', end: '2026-11-24' }).length,
  })
  const refresh = standIn.tokenCalls().slice(before)
  t.equal(refresh.length, 1, 'one token for the capture')
  t.match(refresh[0]!.body, { grant_type: 'refresh_token', client_id: grant.client_id, refresh_token: grant.refresh_token })

  // The latest capture of a day is the one read: the snapshot of those days now comes from this capture.
  const snapshot = await ts.call<any>(
    'get_gsc_snapshot',
    { client_id: clientId, period_start: '2026-11-20', period_end: '2026-11-24', level: 'site' },
    acme.key,
  )
  t.same(snapshot.period.capture_ids, [queued.capture.id])
  t.same(
    snapshot.totals.current,
    metrics(sumBy(inRange({ start: '2026-11-20', end: '2026-11-24' }), () => '').get('')!),
    'overlapping captures never count a day twice',
  )
})

t.test('the credentials appear in no read, no event data and no export', async (t) => {
  const grant = standIn.createOAuthGrant('second@acme-agency.example')
  await ts.call('set_gsc_property', { client_id: clientId, property: DOMAIN_PROPERTY, credentials: account, cadence: 'off' }, acme.key)
  const secrets = [
    account.private_key.split('\n')[1]!,
    account.private_key.replace(/\n/g, '\\n').slice(40, 120),
    grant.client_secret,
    grant.refresh_token,
  ]
  await ts.call('set_gsc_property', { client_id: clientId, property: DOMAIN_PROPERTY, credentials: grant, cadence: 'off' }, acme.key)
  const reads = JSON.stringify([
    await ts.call('get_gsc_property', { client_id: clientId }, acme.key),
    await ts.call('list_gsc_keyword_captures', { client_id: clientId }, acme.key),
    await ts.call('get_client_activity', { client_id: clientId }, acme.key),
  ])
  const { rows } = await ts.database.pool.query<{ data: string }>("select data::text as data from es_events where type like 'Gsc%'")
  const log = rows.map((r) => r.data).join('\n')
  t.ok(log.includes('sealed_credentials'), 'the log holds the sealed credentials')
  const accepted = await postJob(ts.app, acme.key, { kind: 'export_org' })
  const job = await waitForJob(ts.app, acme.key, accepted.json().job_id, (j) => j.status === 'done' || j.status === 'failed', 60_000)
  t.equal(job.status, 'done', 'the export ran')
  const zip = await ts.app.inject({ method: 'GET', url: job.result.download_url, headers: { authorization: `Bearer ${acme.key}` } })
  const files = await unzip(zip.rawPayload)
  const exported = [...files.values()].map((b) => b.toString('utf8')).join('\n')
  t.ok(
    exported.includes(DOMAIN_PROPERTY) && exported.includes('drain cleaning austin'),
    'the export holds the property and the captured rows',
  )
  for (const secret of secrets) {
    t.notOk(reads.includes(secret), 'not in a read')
    t.notOk(log.includes(secret), 'not in the event data')
    t.notOk(exported.includes(secret), 'not in the export')
  }
})

t.test("another organization's client or capture answers exactly like a missing one", async (t) => {
  const other = await orgWithKey(ts, 'Other Agency')
  const missingClient = 987_654
  const missingCapture = 987_655
  const asOther = async (method: string, params: Record<string, unknown>, missing: Record<string, unknown>, ids: readonly number[]) => {
    const a = expectError(t, await ts.rpc(method, params, other.key), 404, 'not_found', `${method} foreign`)
    const b = expectError(t, await ts.rpc(method, missing, other.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(a, ids), withoutIds(b, ids), `${method}: the same answer`)
  }
  const byClient = (extra: Record<string, unknown> = {}) =>
    [{ client_id: clientId, ...extra }, { client_id: missingClient, ...extra }, [clientId, missingClient]] as const
  await asOther('get_gsc_property', ...byClient())
  await asOther('list_gsc_keyword_captures', ...byClient())
  await asOther('get_last_gsc_keyword_capture', ...byClient())
  await asOther('run_gsc_capture', ...byClient())
  await asOther('remove_gsc_property', ...byClient())
  await asOther('set_gsc_property', ...byClient({ property: DOMAIN_PROPERTY, credentials: account }))
  await asOther('get_gsc_snapshot', ...byClient({ period_start: DEFAULT_RANGE.start, period_end: DEFAULT_RANGE.end, level: 'site' }))
  await asOther('get_gsc_capture', { capture_id: captureId }, { capture_id: missingCapture }, [captureId, missingCapture])
  await asOther('get_gsc_capture_keywords', { capture_id: captureId }, { capture_id: missingCapture }, [captureId, missingCapture])
  t.match(await ts.call('get_gsc_property', { client_id: clientId }, acme.key), { property: DOMAIN_PROPERTY }, 'untouched')
})

t.test('refused input changes nothing', async (t) => {
  const fresh = await ts.call<number>('add_client', clientPayload('Quiet Client'), acme.key)
  const before = await eventCount(ts)
  const refused = async (params: Record<string, unknown>, what: string) =>
    expectError(
      t,
      await ts.rpc('set_gsc_property', { client_id: fresh, property: DOMAIN_PROPERTY, credentials: account, ...params }, acme.key),
      400,
      'validation_failed',
      what,
    )
  await refused({ property: 'rapidrooterplumbing.example' }, 'a bare host')
  await refused({ property: 'sc-domain:https://rapidrooterplumbing.example/' }, 'a Domain property with a scheme')
  await refused({ property: 'ftp://rapidrooterplumbing.example/' }, 'not http(s)')
  await refused({ property: 'https://rapidrooterplumbing.example/?utm=1' }, 'a query')
  await refused({ credentials: { ...account, private_key: 'not a key' } }, 'no PEM')
  await refused(
    { credentials: { ...account, private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } },
    'a PEM that is not a key',
  )
  await refused({ credentials: { type: 'service_account', private_key: account.private_key } }, 'no client_email')
  await refused({ credentials: { type: 'oauth', client_id: 'x.apps.googleusercontent.com', client_secret: 's' } }, 'no refresh token')
  await refused({ credentials: { type: 'api_key', key: 'AIza' } }, 'an unknown kind')
  await refused({ cadence: 'daily' }, 'an unknown cadence')
  expectError(t, await ts.rpc('run_gsc_capture', { client_id: fresh }, acme.key), 409, 'gsc_not_connected', 'no property')
  const late = await ts.rpc('run_gsc_capture', { client_id: clientId, end_date: '2026-11-26' }, acme.key)
  expectError(t, late, 400, 'validation_failed', 'end_date later than two days ago')
  expectError(
    t,
    await ts.rpc('run_gsc_capture', { client_id: clientId, start_date: '2025-07-01' }, acme.key),
    400,
    'validation_failed',
    'older than 16 months',
  )
  expectError(
    t,
    await ts.rpc('run_gsc_capture', { client_id: clientId, start_date: '2026-11-10', end_date: '2026-11-01' }, acme.key),
    400,
    'validation_failed',
    'start after end',
  )
  expectError(
    t,
    await ts.rpc('run_gsc_capture', { client_id: clientId, end_date: '2026-02-30' }, acme.key),
    400,
    'validation_failed',
    'not a day',
  )
  expectError(
    t,
    await ts.rpc(
      'get_gsc_snapshot',
      { client_id: clientId, period_start: '2025-01-01', period_end: '2026-11-20', level: 'site' },
      acme.key,
    ),
    400,
    'validation_failed',
    'a period over 490 days',
  )
  expectError(
    t,
    await ts.rpc(
      'get_gsc_snapshot',
      { client_id: clientId, period_start: '2026-11-20', period_end: '2026-11-01', level: 'site' },
      acme.key,
    ),
    400,
    'validation_failed',
    'period backwards',
  )
  expectError(
    t,
    await ts.rpc(
      'get_gsc_snapshot',
      { client_id: clientId, period_start: '2026-11-01', period_end: '2026-11-20', level: 'country' },
      acme.key,
    ),
    400,
    'validation_failed',
    'level',
  )
  t.equal(await eventCount(ts), before, 'nothing appended')
  t.equal(await ts.call('get_gsc_property', { client_id: fresh }, acme.key), null, 'no property')
})

t.test('remove_gsc_property disconnects; captures stay readable; removing again changes nothing', async (t) => {
  t.same(await ts.call('remove_gsc_property', { client_id: clientId }, acme.key), { removed: true })
  t.same(await ts.call('remove_gsc_property', { client_id: clientId }, acme.key), { removed: false })
  t.equal(await ts.call('get_gsc_property', { client_id: clientId }, acme.key), null)
  t.ok((await ts.call<Capture[]>('list_gsc_keyword_captures', { client_id: clientId }, acme.key)).length >= 3, 'captures stay')
  expectError(t, await ts.rpc('run_gsc_capture', { client_id: clientId }, acme.key), 409, 'gsc_not_connected')
})
