/**
 * The capture worker against the local Search Console stand-in, through HTTP: an outage within a call's
 * retries, an outage that outlasts them (the attempt fails visibly, the capture resumes later from where it
 * stopped and never records a row twice), a quota that never lifts (bounded: the capture fails after its
 * attempts), refused credentials and a property the account may not read (the capture fails at once with a
 * coded error and is not retried), a day beyond one page (paging by startRow, events of at most 5,000 rows),
 * a worker stopped mid-capture resuming at its next row, a property removed mid-capture, and the weekly
 * cadence queuing one capture a week.
 */
import t, { type Test } from 'tap'
import { gscCaptureStream } from '../../domain/search/gsc/gsc-capture.js'
import { GscCaptureWorker } from '../../processors/search/gsc/capture-worker.js'
import { API_ERRORS } from '../support/stand-ins/search-console.js'
import { streamEvents } from './helpers.js'
import { DOMAIN_PROPERTY, fictionalRows, finished, gscSetup, until, type GscSetup } from './search-gsc-support.js'

const RANGE = { start: '2026-11-18', end: '2026-11-22' }

interface Capture {
  id: number
  status: string
  attempts: number
  row_count: number
  days_recorded: number
  trigger: string
  error: { code: string; message: string } | null
  next_attempt_at: string | null
}

async function connected(t: Test, overrides: Parameters<typeof gscSetup>[1] = {}): Promise<GscSetup & { email: string }> {
  const setup = await gscSetup(t, overrides)
  const account = setup.standIn.createServiceAccount('rankrelay-gsc')
  setup.standIn.addUser(DOMAIN_PROPERTY, account.client_email)
  setup.standIn.seedRows(DOMAIN_PROPERTY, fictionalRows(RANGE))
  await setup.ts.call(
    'set_gsc_property',
    { client_id: setup.clientId, property: DOMAIN_PROPERTY, credentials: account, cadence: 'off' },
    setup.acme.key,
  )
  return { ...setup, email: account.client_email }
}

async function capture({ ts, acme, clientId }: GscSetup, range: { start: string; end: string } = RANGE): Promise<number> {
  const queued = await ts.call<{ capture: Capture }>(
    'run_gsc_capture',
    { client_id: clientId, start_date: range.start, end_date: range.end },
    acme.key,
  )
  return queued.capture.id
}

/** The rows recorded for a capture, as (date, query, page) keys: duplicates would show as fewer distinct than rows. */
async function recordedKeys(setup: GscSetup, captureId: number): Promise<{ rows: number; distinct: number }> {
  const { rows } = await setup.ts.database.pool.query<{ rows: number; distinct: number }>(
    `select count(*)::int as rows, count(distinct (date, query, page))::int as distinct from read_models.gsc_capture_rows where capture_id = $1`,
    [captureId],
  )
  return rows[0]!
}

const expectedRows = fictionalRows(RANGE).length

t.test('an outage within a call’s retries: the capture completes on its first attempt', async (t) => {
  const setup = await connected(t)
  setup.standIn.failApi(2, API_ERRORS.backend)
  const id = await capture(setup)
  t.match(await finished(setup.ts, setup.acme.key, id, t), { status: 'completed', attempts: 1, row_count: expectedRows, error: null })
  t.equal(setup.standIn.apiCalls().length, 5 + 2, 'five days, two calls retried')
  t.same(await recordedKeys(setup, id), { rows: expectedRows, distinct: expectedRows })
})

t.test('an outage beyond the retries: visible on the capture, resumed later where it stopped, no row twice', async (t) => {
  // Slower backoff, so the capture stays `retrying` long enough to be seen (the retry comes 30 × 20 ms later).
  const setup = await connected(t, { backoffBaseMs: 20 })
  // Held on the third day; the outage begins with the fourth (the held call has its answer already).
  const held = setup.standIn.holdApi((r) => r.body?.startDate === '2026-11-20')
  const id = await capture(setup)
  await until(
    t,
    'two days recorded',
    () => setup.ts.call<Capture>('get_gsc_capture', { capture_id: id }, setup.acme.key),
    (c) => c.days_recorded === 2 && held.waiting() === 1,
  )
  setup.standIn.failApi(3, API_ERRORS.unavailable)
  held.release()
  const retrying = await until(
    t,
    'the attempt failed',
    () => setup.ts.call<Capture>('get_gsc_capture', { capture_id: id }, setup.acme.key),
    (c) => c.status !== 'running',
  )
  t.match(retrying, {
    status: 'retrying',
    attempts: 1,
    days_recorded: 3,
    error: { code: 'gsc_unavailable', message: /HTTP 503.*currently unavailable/ },
    next_attempt_at: String,
  })
  const done = await finished(setup.ts, setup.acme.key, id, t)
  t.match(done, { status: 'completed', attempts: 2, row_count: expectedRows, days_recorded: 5, error: null, next_attempt_at: null })
  t.same(await recordedKeys(setup, id), { rows: expectedRows, distinct: expectedRows }, 'no row lost, none twice')
  const days = setup.standIn.apiCalls().map((c) => c.body.startDate)
  t.same(
    days.filter((d) => d < '2026-11-21'),
    ['2026-11-18', '2026-11-19', '2026-11-20'],
    'the days recorded before the outage are not asked again',
  )
  const types = (await streamEvents(setup.ts, gscCaptureStream(id))).map((e) => e.type)
  t.same(
    types.filter((type) => type !== 'GscRowsRecorded'),
    ['GscCaptureStarted', 'GscCaptureAttemptFailed', 'GscCaptureStarted', 'GscCaptureCompleted'],
  )
})

t.test('a quota that never lifts: bounded, the capture fails after its attempts with gsc_rate_limited', async (t) => {
  const setup = await connected(t, { maxAttempts: 2 })
  setup.standIn.failApi(1000, API_ERRORS.quota)
  const id = await capture(setup)
  const done = await finished(setup.ts, setup.acme.key, id, t)
  t.match(done, { status: 'failed', attempts: 5, row_count: 0, error: { code: 'gsc_rate_limited', message: /quota exceeded/ } })
  t.equal(setup.standIn.apiCalls().length, 10, 'five attempts of two tries each, then nothing more')
})

t.test('refused credentials and a property the account may not read fail the capture at once, never retried', async (t) => {
  const setup = await connected(t)
  setup.standIn.deleteServiceAccountKey(setup.email)
  const id = await capture(setup)
  t.match(await finished(setup.ts, setup.acme.key, id, t), {
    status: 'failed',
    attempts: 1,
    error: { code: 'gsc_unauthorized', message: 'Google refused the credentials (invalid_grant: Invalid JWT Signature.)' },
  })
  const calls = setup.standIn.requests.length
  // Several polls (every 40 ms) come and go: a failed capture is not taken up again.
  await new Promise((resolve) => setTimeout(resolve, 400))
  t.equal(setup.standIn.requests.length, calls, 'no further token or API call')

  const outsider = setup.standIn.createServiceAccount('not-a-user')
  await setup.ts.call(
    'set_gsc_property',
    { client_id: setup.clientId, property: DOMAIN_PROPERTY, credentials: outsider, cadence: 'off' },
    setup.acme.key,
  )
  const forbidden = await capture(setup)
  t.match(await finished(setup.ts, setup.acme.key, forbidden, t), {
    status: 'failed',
    attempts: 1,
    error: {
      code: 'gsc_forbidden',
      message: `User does not have sufficient permission for site '${DOMAIN_PROPERTY}'. See also: https://support.google.com/webmasters/answer/2451999.`,
    },
  })
  t.equal(setup.standIn.apiCalls().length, 1, 'the 403 was asked once')
})

t.test('a day beyond one page: paged by startRow, recorded in events of at most 5,000 rows', async (t) => {
  const setup = await connected(t)
  const day = '2026-11-10'
  const many = Array.from({ length: 25_003 }, (_, i) => ({
    date: day,
    query: `emergency plumber ${i}`,
    page: `https://www.rapidrooterplumbing.example/service-area/${i % 40}/`,
    clicks: i % 7,
    impressions: 10 + (i % 13),
    position: 1 + (i % 50),
  }))
  setup.standIn.seedRows(DOMAIN_PROPERTY, many)
  const id = await capture(setup, { start: day, end: day })
  t.match(await finished(setup.ts, setup.acme.key, id, t), { status: 'completed', row_count: 25_003 })
  t.same(
    setup.standIn.apiCalls().map((c) => [c.body.startDate, c.body.startRow, c.body.rowLimit]),
    [
      [day, 0, 25_000],
      [day, 25_000, 25_000],
    ],
  )
  const events = (await streamEvents(setup.ts, gscCaptureStream(id))).filter((e) => e.type === 'GscRowsRecorded')
  t.same(
    events.map((e) => [e.data.start_row, e.data.rows.length, e.data.day_complete]),
    [
      [0, 5000, false],
      [5000, 5000, false],
      [10_000, 5000, false],
      [15_000, 5000, false],
      [20_000, 5000, false],
      [25_000, 3, true],
    ],
  )
  t.same(await recordedKeys(setup, id), { rows: 25_003, distinct: 25_003 })
  const top = await setup.ts.call<any[]>('get_gsc_capture_keywords', { capture_id: id, limit: 1 }, setup.acme.key)
  t.equal(top[0].clicks, 6, 'the reads see every page of rows')
})

t.test('a worker stopped mid-capture resumes at its next row: nothing asked or recorded twice', async (t) => {
  const setup = await connected(t)
  const worker = setup.ts.system.processors.find((p): p is GscCaptureWorker => p instanceof GscCaptureWorker)
  if (!worker) throw new Error('no capture worker among the processors')
  const held = setup.standIn.holdApi((r) => r.body?.startDate === '2026-11-21')
  const id = await capture(setup)
  await until(
    t,
    'the worker waits on the fourth day',
    async () => held.waiting(),
    (n) => n === 1,
  )
  await worker.stop()
  const stopped = await until(
    t,
    'the read model shows the three days',
    () => setup.ts.call<Capture>('get_gsc_capture', { capture_id: id }, setup.acme.key),
    (c) => c.days_recorded === 3,
  )
  t.match(stopped, { status: 'running', days_recorded: 3, attempts: 1 }, 'left running where it stood')
  held.release()
  worker.start()
  t.match(await finished(setup.ts, setup.acme.key, id, t), { status: 'completed', attempts: 1, row_count: expectedRows, days_recorded: 5 })
  t.same(
    setup.standIn.apiCalls().map((c) => c.body.startDate),
    ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-21', '2026-11-22'],
    'the call cut off is asked again; the days before it are not',
  )
  t.same(await recordedKeys(setup, id), { rows: expectedRows, distinct: expectedRows })
  const types = (await streamEvents(setup.ts, gscCaptureStream(id))).map((e) => e.type).filter((type) => type !== 'GscRowsRecorded')
  t.same(types, ['GscCaptureStarted', 'GscCaptureCompleted'], 'one attempt, resumed')
})

t.test('a property removed mid-capture stops it with gsc_not_connected', async (t) => {
  const setup = await connected(t)
  const held = setup.standIn.holdApi((r) => r.body?.startDate === '2026-11-19')
  const id = await capture(setup)
  await until(
    t,
    'the worker waits on the second day',
    async () => held.waiting(),
    (n) => n === 1,
  )
  await setup.ts.call('remove_gsc_property', { client_id: setup.clientId }, setup.acme.key)
  held.release()
  t.match(await finished(setup.ts, setup.acme.key, id, t), { status: 'failed', days_recorded: 2, error: { code: 'gsc_not_connected' } })
  t.equal(setup.standIn.apiCalls().length, 2, 'no day read after the removal')
})

t.test('the weekly cadence queues one capture of the last 28 complete days, then waits a week', async (t) => {
  const setup = await connected(t)
  setup.standIn.seedRows(DOMAIN_PROPERTY, fictionalRows({ start: '2026-10-28', end: '2026-11-17' }))
  setup.standIn.addUser(DOMAIN_PROPERTY, 'owner@acme.example')
  const grant = setup.standIn.createOAuthGrant('owner@acme.example')
  await setup.ts.call(
    'set_gsc_property',
    { client_id: setup.clientId, property: DOMAIN_PROPERTY, credentials: grant, cadence: 'weekly' },
    setup.acme.key,
  )
  const [first] = await until(
    t,
    'a capture queued by the cadence',
    () => setup.ts.call<Capture[]>('list_gsc_keyword_captures', { client_id: setup.clientId }, setup.acme.key),
    (list) => list.length > 0,
  )
  t.match(first, { trigger: 'cadence', start_date: '2026-10-28', end_date: '2026-11-24' })
  // The property has rows up to 2026-11-22; the last two days of the range come back empty.
  t.match(await finished(setup.ts, setup.acme.key, first!.id, t), {
    status: 'completed',
    days_recorded: 28,
    row_count: fictionalRows({ start: '2026-10-28', end: '2026-11-22' }).length,
  })
  await new Promise((resolve) => setTimeout(resolve, 400))
  t.equal(
    (await setup.ts.call<Capture[]>('list_gsc_keyword_captures', { client_id: setup.clientId }, setup.acme.key)).length,
    1,
    'not again within the week',
  )
})
