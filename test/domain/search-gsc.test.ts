/**
 * Search Console, pure: property names (Domain and URL-prefix, canonical forms, what is refused), capture
 * ranges (the default 28 complete days, the data lag, 16 months back), previous periods and uncovered days,
 * the metrics' arithmetic, the connection aggregate (one open capture per client, the weekly cadence) and the
 * capture aggregate (rows day by day, resuming after any stop without recording a key twice, attempts,
 * completion, failure).
 */
import t from 'tap'
import { redactSecretFields } from '../../domain/exports/redact.js'
import { isSecretField } from '../../domain/exports/secret-columns.js'
import { parseSecret, secretOf } from '../../domain/search/gsc/credentials.js'
import {
  addDays,
  captureRange,
  daysInRange,
  defaultCaptureRange,
  monthsBefore,
  previousPeriod,
  snapshotPeriod,
  uncoveredRanges,
} from '../../domain/search/gsc/dates.js'
import { GSC_ROWS_PER_EVENT, type GscCaptureEvent, type GscPropertyEvent, type GscRow } from '../../domain/search/gsc/events.js'
import { captureRetryDelayMs, gscCapture, MAX_CAPTURE_ATTEMPTS } from '../../domain/search/gsc/gsc-capture.js'
import { cadenceDue, gscProperty } from '../../domain/search/gsc/gsc-property.js'
import { metricsOf, sumRows } from '../../domain/search/gsc/metrics.js'
import { parseProperty } from '../../domain/search/gsc/property.js'
import { fold } from '../../domain/shared/aggregate.js'
import { DomainError } from '../../domain/shared/errors.js'
import { spec } from './given-when-then.js'

const refused = (f: () => unknown) => {
  try {
    f()
    return null
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a DomainError'
  }
}

t.test('property names: Domain and URL-prefix properties, canonical; what can never be one is refused', async (t) => {
  t.same(parseProperty(' SC-DOMAIN:Example.COM '), { property: 'sc-domain:example.com', type: 'domain' })
  t.same(parseProperty('sc-domain:xn--bcher-kva.example'), { property: 'sc-domain:xn--bcher-kva.example', type: 'domain' })
  t.same(
    parseProperty('https://www.Example.com'),
    { property: 'https://www.example.com/', type: 'url_prefix' },
    'the slash Search Console shows',
  )
  t.same(parseProperty('HTTP://example.com:8080/blog'), { property: 'http://example.com:8080/blog/', type: 'url_prefix' })
  t.same(parseProperty('https://example.com/shop/'), { property: 'https://example.com/shop/', type: 'url_prefix' })
  for (const bad of [
    '',
    'example.com',
    'sc-domain:',
    'sc-domain:https://example.com',
    'sc-domain:example.com/path',
    'sc-domain:localhost',
    'ftp://example.com/',
    'https://user:pw@example.com/',
    'https://example.com/?q=1',
    'https://example.com/#top',
    'https://localhost/',
    `https://example.com/${'a'.repeat(2100)}`,
  ]) {
    t.equal(
      refused(() => parseProperty(bad)),
      'validation_failed',
      JSON.stringify(bad.slice(0, 40)),
    )
  }
})

t.test('credentials: what is sealed is what a token request needs, and it reads back', async (t) => {
  const key = {
    type: 'service_account' as const,
    client_email: ' a@p.iam.gserviceaccount.com ',
    private_key: 'PEM',
    project_id: 'p',
    token_uri: 'https://evil.example/token',
  }
  const secret = secretOf(key)
  t.same(
    secret,
    { type: 'service_account', client_email: 'a@p.iam.gserviceaccount.com', private_key: 'PEM', private_key_id: null },
    "the key file's token_uri is not kept",
  )
  t.same(parseSecret(JSON.stringify(secret)), secret)
  const oauth = { type: 'oauth' as const, client_id: 'c', client_secret: 's', refresh_token: 'r' }
  t.same(parseSecret(JSON.stringify(secretOf(oauth))), oauth)
  t.equal(parseSecret('{"type":"api_key"}'), null)
  t.equal(parseSecret('not json'), null)
})

t.test('the sealed credentials are a field an auditor’s replay leaves out', async (t) => {
  const { value, redacted } = redactSecretFields('GscPropertySet', {
    client_id: 7,
    auth_type: 'oauth',
    sealed_credentials: 'v1.k.iv.tag.ct',
  })
  t.same(value, { client_id: 7, auth_type: 'oauth' })
  t.same(redacted, ['sealed_credentials'])
  t.equal(isSecretField('gsc_properties', 'service_account_email'), false, 'the service account address is exported')
  t.equal(isSecretField('gsc_properties', 'auth_type'), false)
})

t.test('capture ranges: 28 complete days by default, the data lag, 16 months back', async (t) => {
  t.same(defaultCaptureRange('2026-11-27'), { start: '2026-10-28', end: '2026-11-24' })
  t.same(captureRange('2026-11-27', {}), { start: '2026-10-28', end: '2026-11-24' })
  t.same(
    captureRange('2026-11-27', { end: '2026-10-31' }),
    { start: '2026-10-04', end: '2026-10-31' },
    'only an end: the 28 days ending there',
  )
  t.same(
    captureRange('2026-11-27', { start: '2026-11-01' }),
    { start: '2026-11-01', end: '2026-11-24' },
    'only a start: to the default end',
  )
  t.same(
    captureRange('2026-11-27', { start: '2026-11-25', end: '2026-11-25' }),
    { start: '2026-11-25', end: '2026-11-25' },
    'two days ago is the latest',
  )
  t.same(
    captureRange('2026-03-01', { start: '2024-11-01', end: '2024-11-02' }),
    { start: '2024-11-01', end: '2024-11-02' },
    '16 months back',
  )
  t.equal(
    refused(() => captureRange('2026-11-27', { end: '2026-11-26' })),
    'validation_failed',
    'yesterday has no final data',
  )
  t.equal(
    refused(() => captureRange('2026-11-27', { start: '2026-11-26' })),
    'validation_failed',
    'a start after the default end',
  )
  t.equal(
    refused(() => captureRange('2026-11-27', { start: '2026-11-10', end: '2026-11-09' })),
    'validation_failed',
  )
  t.equal(
    refused(() => captureRange('2026-03-01', { start: '2024-10-31' })),
    'validation_failed',
    'older than Search Console keeps',
  )
  t.equal(monthsBefore('2026-03-31', 1), '2026-02-28', 'the last day of a shorter month')
  t.equal(addDays('2028-02-28', 1), '2028-02-29')
  t.equal(daysInRange('2026-01-01', '2026-12-31'), 365)
  t.equal(daysInRange('2026-01-02', '2026-01-01'), 0)
})

t.test('periods: the previous one of equal length, the days no capture covers, the longest snapshot', async (t) => {
  t.same(previousPeriod({ start: '2026-10-28', end: '2026-11-24' }), { start: '2026-09-30', end: '2026-10-27' })
  t.same(previousPeriod({ start: '2026-03-01', end: '2026-03-01' }), { start: '2026-02-28', end: '2026-02-28' })
  const period = { start: '2026-11-01', end: '2026-11-30' }
  t.same(uncoveredRanges(period, []), [period])
  t.same(uncoveredRanges(period, [{ start: '2026-10-01', end: '2026-12-31' }]), [])
  t.same(
    uncoveredRanges(period, [
      { start: '2026-11-10', end: '2026-11-12' },
      { start: '2026-11-03', end: '2026-11-05' },
      { start: '2026-11-04', end: '2026-11-08' },
      { start: '2026-11-28', end: '2026-12-05' },
    ]),
    [
      { start: '2026-11-01', end: '2026-11-02' },
      { start: '2026-11-09', end: '2026-11-09' },
      { start: '2026-11-13', end: '2026-11-27' },
    ],
    'overlapping and unordered captures',
  )
  t.same(snapshotPeriod('2025-08-01', '2026-12-03'), { start: '2025-08-01', end: '2026-12-03' })
  t.equal(
    refused(() => snapshotPeriod('2025-08-01', '2026-12-04')),
    'validation_failed',
    'over 490 days',
  )
  t.equal(
    refused(() => snapshotPeriod('2026-11-02', '2026-11-01')),
    'validation_failed',
  )
})

t.test('metrics: sums, CTR over impressions, impression-weighted position', async (t) => {
  const rows = [
    { clicks: 10, impressions: 1000, position: 3 },
    { clicks: 1, impressions: 10, position: 40 },
  ]
  t.same(sumRows(rows), { clicks: 11, impressions: 1010, weighted_position: 3400 })
  t.same(metricsOf(sumRows(rows)), { clicks: 11, impressions: 1010, ctr: 0.0109, position: 3.37 }, 'not the plain mean 21.5')
  t.same(metricsOf({ clicks: 0, impressions: 0, weighted_position: 0 }), { clicks: 0, impressions: 0, ctr: 0, position: null })
})

const property = (extra: Partial<Extract<GscPropertyEvent, { type: 'GscPropertySet' }>['data']> = {}): GscPropertyEvent => ({
  type: 'GscPropertySet',
  data: {
    client_id: 7,
    property: 'sc-domain:example.com',
    property_type: 'domain',
    auth_type: 'service_account',
    service_account_email: 'a@p.iam.gserviceaccount.com',
    sealed_credentials: 'v1.k.iv.tag.ct',
    cadence: 'weekly',
    ...extra,
  },
})
const queued = (id: number, start: string, end: string, trigger: 'manual' | 'cadence' = 'manual'): GscPropertyEvent => ({
  type: 'GscCaptureQueued',
  data: { client_id: 7, capture_id: id, property: 'sc-domain:example.com', start_date: start, end_date: end, trigger },
})
const queue = (id: number, trigger: 'manual' | 'cadence', lastOpen = false, today = '2026-11-27') =>
  ({
    type: 'QueueCapture',
    client_id: 7,
    capture_id: id,
    range: defaultCaptureRange(today),
    trigger,
    last_capture_open: lastOpen,
    today,
  }) as const

t.test('the connection: one open capture per client; the weekly cadence once a week', async (t) => {
  const given = spec(gscProperty)
  given().when(queue(1, 'manual')).thenThrows(t, 'gsc_not_connected')
  given().when(queue(1, 'cadence')).thenNothingHappens(t)
  given(property())
    .when(queue(1, 'manual'))
    .then(t, [queued(1, '2026-10-28', '2026-11-24')])
  given(property(), queued(1, '2026-10-28', '2026-11-24'))
    .when(queue(2, 'manual', true))
    .thenNothingHappens(t)
  given(property(), queued(1, '2026-10-28', '2026-11-24'))
    .when(queue(2, 'manual', false))
    .then(t, [queued(2, '2026-10-28', '2026-11-24')])
  given(property({ cadence: 'off' }))
    .when(queue(1, 'cadence'))
    .thenNothingHappens(t)
  given(property())
    .when(queue(1, 'cadence'))
    .then(t, [queued(1, '2026-10-28', '2026-11-24', 'cadence')])
  given(property(), queued(1, '2026-10-28', '2026-11-24', 'cadence'))
    .when(queue(2, 'cadence', false, '2026-12-03'))
    .thenNothingHappens(t)
  given(property(), queued(1, '2026-10-28', '2026-11-24', 'cadence'))
    .when(queue(2, 'cadence', false, '2026-12-04'))
    .then(t, [queued(2, '2026-11-04', '2026-12-01', 'cadence')])
  const removed: GscPropertyEvent = { type: 'GscPropertyRemoved', data: { client_id: 7 } }
  given(property()).when({ type: 'RemoveProperty', client_id: 7 }).then(t, [removed])
  given(property(), removed).when({ type: 'RemoveProperty', client_id: 7 }).thenNothingHappens(t)
  given(property(), removed).when(queue(1, 'manual')).thenThrows(t, 'gsc_not_connected')
  const state = fold(gscProperty, [property(), queued(1, '2026-10-01', '2026-10-28'), queued(2, '2026-09-01', '2026-09-28')])
  t.equal(state.lastCapturedEnd, '2026-10-28', 'the latest end of any capture, not the last queued')
  t.equal(cadenceDue(state, '2026-11-07'), true)
  t.equal(cadenceDue(state, '2026-11-06'), false)
})

const started = (attempt = 1): GscCaptureEvent => ({
  type: 'GscCaptureStarted',
  data: { client_id: 7, capture_id: 40, property: 'sc-domain:example.com', start_date: '2026-11-01', end_date: '2026-11-02', attempt },
})
const row = (query: string, page = 'https://example.com/', clicks = 1): GscRow => ({
  query,
  page,
  clicks,
  impressions: 10,
  ctr: clicks / 10,
  position: 4.5,
})
const recorded = (
  date: string,
  startRow: number,
  apiRows: number,
  firstRowNo: number,
  rows: GscRow[],
  dayComplete: boolean,
): GscCaptureEvent => ({
  type: 'GscRowsRecorded',
  data: {
    client_id: 7,
    capture_id: 40,
    date,
    start_row: startRow,
    api_rows: apiRows,
    first_row_no: firstRowNo,
    day_complete: dayComplete,
    rows,
  },
})
const record = (date: string, startRow: number, rows: GscRow[], dayComplete: boolean) =>
  ({ type: 'RecordRows', date, start_row: startRow, rows, day_complete: dayComplete }) as const
const start = {
  type: 'StartCapture',
  client_id: 7,
  capture_id: 40,
  property: 'sc-domain:example.com',
  start_date: '2026-11-01',
  end_date: '2026-11-02',
} as const
const outage = { code: 'gsc_unavailable' as const, message: 'HTTP 503' }

t.test('a capture: rows day by day, in order, never a key twice; the last day completes it', async (t) => {
  const given = spec(gscCapture)
  given()
    .when(start)
    .then(t, [started(1)])
  given(started()).when(start).thenNothingHappens(t)
  given()
    .when(record('2026-11-01', 0, [row('a')], true))
    .thenThrows(t, 'gsc_capture_not_running')
  given(started())
    .when(record('2026-11-01', 0, [row('a'), row('b')], false))
    .then(t, [recorded('2026-11-01', 0, 2, 0, [row('a'), row('b')], false)])
  // A page asked again from an earlier row (a retried append): only what is past the cursor, keys not recorded.
  const afterTwo = [started(), recorded('2026-11-01', 0, 2, 0, [row('a'), row('b')], false)]
  given(...afterTwo)
    .when(record('2026-11-01', 1, [row('b'), row('a', 'https://example.com/x'), row('a')], true))
    .then(t, [recorded('2026-11-01', 2, 2, 2, [row('a', 'https://example.com/x')], true)])
  given(...afterTwo)
    .when(record('2026-11-01', 0, [row('a'), row('b')], false))
    .thenNothingHappens(t)
  given(...afterTwo)
    .when(record('2026-11-01', 3, [row('c')], true))
    .thenThrows(t, 'gsc_capture_gap')
  given(...afterTwo)
    .when(record('2026-11-02', 0, [row('c')], true))
    .thenThrows(t, 'gsc_capture_gap')
  const dayOne = [...afterTwo, recorded('2026-11-01', 2, 1, 2, [row('c')], true)]
  given(...dayOne)
    .when(record('2026-11-01', 0, [row('z')], true))
    .thenNothingHappens(t)
  // A key of another day is another key; the last day's last page completes the capture.
  given(...dayOne)
    .when(record('2026-11-02', 0, [row('a')], true))
    .then(t, [
      recorded('2026-11-02', 0, 1, 3, [row('a')], true),
      { type: 'GscCaptureCompleted', data: { client_id: 7, capture_id: 40, row_count: 4, days: 2 } },
    ])
  // An empty day is recorded too (the cursor must pass it).
  given(...dayOne)
    .when(record('2026-11-02', 0, [], true))
    .then(t, [
      recorded('2026-11-02', 0, 0, 3, [], true),
      { type: 'GscCaptureCompleted', data: { client_id: 7, capture_id: 40, row_count: 3, days: 2 } },
    ])
})

t.test('a page of the API is cut into events of at most 5,000 rows, in one decision', async (t) => {
  const page = Array.from({ length: 12_001 }, (_, i) => row(`query ${i}`))
  const events = gscCapture.decide(record('2026-11-01', 0, page, true), fold(gscCapture, [started()]))
  t.same(
    events.map((e) =>
      e.type === 'GscRowsRecorded'
        ? [e.data.start_row, e.data.api_rows, e.data.first_row_no, e.data.rows.length, e.data.day_complete]
        : e.type,
    ),
    [
      [0, GSC_ROWS_PER_EVENT, 0, 5000, false],
      [5000, GSC_ROWS_PER_EVENT, 5000, 5000, false],
      [10_000, 2001, 10_000, 2001, true],
    ],
  )
  const state = fold(gscCapture, [started(), ...events])
  t.match(state, { cursorDate: '2026-11-02', cursorRow: 0, rowCount: 12_001 })
  const partial = fold(gscCapture, [started(), events[0]!])
  t.match(partial, { cursorDate: '2026-11-01', cursorRow: 5000 }, 'resumes after the last event recorded')
  t.equal(partial.dayKeys.size, 5000)
})

t.test('attempts: an outage retries later from where it stopped; refusals and the last attempt fail it', async (t) => {
  const given = spec(gscCapture)
  const failedAttempt = (attempt: number): GscCaptureEvent => ({
    type: 'GscCaptureAttemptFailed',
    data: { client_id: 7, capture_id: 40, attempt, error: outage, retry_at: '2026-11-27T10:01:00.000Z' },
  })
  const halfway = [started(), recorded('2026-11-01', 0, 1, 0, [row('a')], true)]
  given(...halfway)
    .when({ type: 'FailAttempt', error: outage, retry_at: '2026-11-27T10:01:00.000Z' })
    .then(t, [failedAttempt(1)])
  given(...halfway, failedAttempt(1))
    .when(start)
    .then(t, [started(2)])
  const resumed = fold(gscCapture, [...halfway, failedAttempt(1), started(2)])
  t.match(
    resumed,
    { status: 'running', attempts: 2, cursorDate: '2026-11-02', cursorRow: 0, rowCount: 1, retryAt: null },
    'resumes at the next day',
  )
  given(...halfway, failedAttempt(1))
    .when({ type: 'FailAttempt', error: outage, retry_at: 'x' })
    .thenThrows(t, 'gsc_capture_not_running')
  const attempts: GscCaptureEvent[] = [started(1)]
  for (let a = 1; a < MAX_CAPTURE_ATTEMPTS; a++) attempts.push(failedAttempt(a), started(a + 1))
  given(...attempts)
    .when({ type: 'FailAttempt', error: outage, retry_at: '2026-11-27T10:01:00.000Z' })
    .then(t, [{ type: 'GscCaptureFailed', data: { client_id: 7, capture_id: 40, attempt: MAX_CAPTURE_ATTEMPTS, error: outage } }])
  const unauthorized = { code: 'gsc_unauthorized' as const, message: 'invalid_grant' }
  given(...halfway)
    .when({ type: 'FailCapture', client_id: 7, capture_id: 40, error: unauthorized })
    .then(t, [{ type: 'GscCaptureFailed', data: { client_id: 7, capture_id: 40, attempt: 1, error: unauthorized } }])
  given()
    .when({ type: 'FailCapture', client_id: 7, capture_id: 40, error: { code: 'gsc_not_connected', message: 'removed' } })
    .then(t, [
      {
        type: 'GscCaptureFailed',
        data: { client_id: 7, capture_id: 40, attempt: 0, error: { code: 'gsc_not_connected', message: 'removed' } },
      },
    ])
  const failed: GscCaptureEvent = { type: 'GscCaptureFailed', data: { client_id: 7, capture_id: 40, attempt: 1, error: unauthorized } }
  given(...halfway, failed)
    .when({ type: 'FailCapture', client_id: 7, capture_id: 40, error: unauthorized })
    .thenNothingHappens(t)
  given(...halfway, failed)
    .when(start)
    .thenNothingHappens(t)
  t.same(
    [1, 2, 3, 4].map((a) => captureRetryDelayMs(a, 2000)),
    [60_000, 120_000, 240_000, 480_000],
  )
})
