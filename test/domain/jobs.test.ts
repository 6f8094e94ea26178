/**
 * The job and job-slot aggregates (domain/jobs) in given/when/then form: no database, no clock.
 */
import t from 'tap'
import type { JobEvent, JobSlotEvent } from '../../domain/jobs/events.js'
import { job, type JobCommand } from '../../domain/jobs/job.js'
import { slot, slotKey, type SlotCommand } from '../../domain/jobs/slot.js'
import { spec } from './given-when-then.js'

const given = spec(job)
const ids = { job_id: 4, kind: 'ad_copy', client_id: 9 }
const requested: JobEvent = { type: 'JobRequested', data: { ...ids, group_id: null, payload: { areas: ['Austin'] }, meter: false } }
const started = (attempt = 1): JobEvent => ({ type: 'JobStarted', data: { job_id: 4, attempt, worker: 'w1' } })
const cancelAsked: JobEvent = { type: 'JobCancelRequested', data: { job_id: 4 } }
const cancelled: JobEvent = { type: 'JobCancelled', data: ids }
const completed: JobEvent = { type: 'JobCompleted', data: { ...ids, result: { ok: true } } }
const failed = (reason: 'error' | 'watchdog' = 'error', error = 'boom'): JobEvent => ({
  type: 'JobFailed',
  data: { ...ids, error, reason },
})
const interrupted: JobEvent = { type: 'JobInterrupted', data: { job_id: 4, attempt: 1, reason: 'shutdown' } }
const fail = (attempt = 1, reason: 'error' | 'watchdog' = 'error'): JobCommand => ({ type: 'FailJob', attempt, error: 'boom', reason })

t.test('RequestJob', async (t) => {
  t.test('records the request', async (t) =>
    given()
      .when({ type: 'RequestJob', job_id: 4, kind: 'ad_copy', client_id: 9, group_id: null, payload: { areas: ['Austin'] }, meter: false })
      .then(t, [requested]),
  )
  t.test('twice is refused', async (t) =>
    given(requested)
      .when({ type: 'RequestJob', job_id: 4, kind: 'ad_copy', client_id: 9, group_id: null, payload: {}, meter: false })
      .thenThrows(t, 'already_exists'),
  )
  t.test('anything else on a missing job is not_found', async (t) => given().when({ type: 'CancelJob' }).thenThrows(t, 'not_found'))
})

t.test('StartJob: only a queued job starts, counting attempts', async (t) => {
  t.test('first start', async (t) =>
    given(requested)
      .when({ type: 'StartJob', worker: 'w1' })
      .then(t, [started(1)]),
  )
  t.test('resumed after an interruption: attempt 2', async (t) =>
    given(requested, started(1), interrupted)
      .when({ type: 'StartJob', worker: 'w1' })
      .then(t, [started(2)]),
  )
  t.test('running', async (t) => given(requested, started()).when({ type: 'StartJob', worker: 'w2' }).thenThrows(t, 'job_not_queued'))
  t.test('cancelled', async (t) => given(requested, cancelled).when({ type: 'StartJob', worker: 'w2' }).thenThrows(t, 'job_not_queued'))
})

t.test('CancelJob', async (t) => {
  t.test('queued: cancelled at once', async (t) => given(requested).when({ type: 'CancelJob' }).then(t, [cancelled]))
  t.test('running: asked to stop', async (t) => given(requested, started()).when({ type: 'CancelJob' }).then(t, [cancelAsked]))
  t.test('running, already asked: nothing more', async (t) =>
    given(requested, started(), cancelAsked).when({ type: 'CancelJob' }).thenNothingHappens(t),
  )
  for (const [name, end] of [
    ['done', completed],
    ['failed', failed()],
    ['cancelled', cancelled],
  ] as const) {
    t.test(`${name}: job_already_terminal`, async (t) =>
      given(requested, started(), end)
        .when({ type: 'CancelJob' })
        .thenThrows(t, 'job_already_terminal', { detail: `job 4 is ${name}` }),
    )
  }
})

t.test('the worker ends its attempt', async (t) => {
  t.test('complete', async (t) =>
    given(requested, started())
      .when({ type: 'CompleteJob', attempt: 1, result: { ok: true } })
      .then(t, [completed]),
  )
  t.test('fail with the error', async (t) => given(requested, started()).when(fail()).then(t, [failed()]))
  t.test('the watchdog fails it', async (t) =>
    given(requested, started())
      .when(fail(1, 'watchdog'))
      .then(t, [failed('watchdog')]),
  )
  t.test('a failure after a cancel request is a cancellation', async (t) =>
    given(requested, started(), cancelAsked).when(fail()).then(t, [cancelled]),
  )
  t.test('so is the watchdog finding it after a cancel request', async (t) =>
    given(requested, started(), cancelAsked).when(fail(1, 'watchdog')).then(t, [cancelled]),
  )
  t.test('a completion despite a cancel request keeps the result', async (t) =>
    given(requested, started(), cancelAsked)
      .when({ type: 'CompleteJob', attempt: 1, result: { ok: true } })
      .then(t, [completed]),
  )
  t.test('an older attempt changes nothing', async (t) =>
    given(requested, started(1), interrupted, started(2)).when(fail(1)).thenNothingHappens(t),
  )
  t.test('a finished job changes nothing', async (t) =>
    given(requested, started(), failed('watchdog')).when({ type: 'CompleteJob', attempt: 1, result: {} }).thenNothingHappens(t),
  )
  t.test('progress of the current attempt', async (t) =>
    given(requested, started())
      .when({ type: 'ReportProgress', attempt: 1, done: 2, total: 5, message: 'two' })
      .then(t, [{ type: 'JobProgressed', data: { job_id: 4, attempt: 1, done: 2, total: 5, message: 'two' } }]),
  )
  t.test('no progress once finished', async (t) =>
    given(requested, started(), completed)
      .when({ type: 'ReportProgress', attempt: 1, done: 2, total: 5, message: null })
      .thenNothingHappens(t),
  )
  t.test('interrupted by a shutdown: queued again', async (t) =>
    given(requested, started()).when({ type: 'InterruptJob', attempt: 1 }).then(t, [interrupted]),
  )
  t.test('interrupted after a cancel request: cancelled', async (t) =>
    given(requested, started(), cancelAsked).when({ type: 'InterruptJob', attempt: 1 }).then(t, [cancelled]),
  )
  t.test('long errors are cut to 2000 characters', async (t) => {
    const [event] = given(requested, started())
      .when({ type: 'FailJob', attempt: 1, error: 'x'.repeat(5000), reason: 'error' })
      .then(t, [failed('error', 'x'.repeat(2000))])
    t.equal((event!.data as { error: string }).error.length, 2000)
  })
})

t.test('the slot: one active job per client or organization', async (t) => {
  const givenSlot = spec(slot)
  const NOW = '2026-11-23T12:00:00.000Z'
  const later = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString()
  const take = (over: Partial<SlotCommand> = {}): SlotCommand => ({
    type: 'TakeSlot',
    slot: 'client_9',
    job_id: 5,
    kind: 'ad_copy',
    sandbox: false,
    now: later(30),
    holder: 'active',
    ...over,
  })
  const taken = (over: Partial<JobSlotEvent['data']> = {}): JobSlotEvent => ({
    type: 'JobSlotTaken',
    data: { slot: 'client_9', job_id: 4, kind: 'ad_copy', sandbox: false, taken_at: NOW, ...over },
  })

  t.equal(slotKey({ clientId: 9, orgId: 2 }), 'client_9')
  t.equal(slotKey({ clientId: null, orgId: 2 }), 'org_2')
  t.test('a free slot is taken', async (t) =>
    givenSlot()
      .when(take({ holder: 'finished', now: NOW }))
      .then(t, [taken({ job_id: 5 })]),
  )
  t.test('held by an active job: job_already_running naming it', async (t) =>
    givenSlot(taken()).when(take()).thenThrows(t, 'job_already_running', { detail: 'job 4 is still active; poll /api/v1/jobs/4' }),
  )
  t.test('its job finished: taken', async (t) =>
    givenSlot(taken())
      .when(take({ holder: 'finished' }))
      .then(t, [taken({ job_id: 5, taken_at: later(30) })]),
  )
  t.test('its job not recorded yet: held', async (t) =>
    givenSlot(taken())
      .when(take({ holder: 'missing' }))
      .thenThrows(t, 'job_already_running'),
  )
  t.test('its job never recorded (a crash) a minute on: free', async (t) =>
    givenSlot(taken())
      .when(take({ holder: 'missing', now: later(61) }))
      .then(t, [taken({ job_id: 5, taken_at: later(61) })]),
  )
  t.test('the sandbox may not start other kinds', async (t) =>
    givenSlot()
      .when(take({ holder: 'finished', sandbox: true }))
      .thenThrows(t, 'sandbox_read_only'),
  )
  t.test('the sandbox exports once per 10 minutes', async (t) => {
    const sandboxExport = taken({ slot: 'org_2', kind: 'export_org', sandbox: true })
    const again = take({ slot: 'org_2', kind: 'export_org', sandbox: true, holder: 'finished', now: later(240) })
    const error = givenSlot(sandboxExport).when(again).thenThrows(t, 'rate_limited')
    t.equal((error as unknown as { retryAfterSeconds: number }).retryAfterSeconds, 360)
    givenSlot(sandboxExport)
      .when({ ...again, now: later(600) })
      .then(t, [taken({ slot: 'org_2', job_id: 5, kind: 'export_org', sandbox: true, taken_at: later(600) })])
    // An owner's export in between does not reset the sandbox's clock, nor is it limited.
    givenSlot(sandboxExport, taken({ slot: 'org_2', job_id: 5, kind: 'export_org', taken_at: later(60) }))
      .when({ ...again, job_id: 6 })
      .thenThrows(t, 'rate_limited')
  })
})
