/**
 * The job API end to end (spec Job resource and state table): POST /api/v1/jobs →
 * queued → running → done | failed | cancelled, GET the record, cancel, one active job per client. The
 * handlers are the tests' own (injected), so the engine is tested apart from the real kinds.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { aClient, cancelJob, ControlledHandler, getJob, postJob, QUICK_JOBS, testHandlers, waitForJob } from './jobs-helpers.js'

t.test('a job runs from request to done, and the record shows each step', async (t) => {
  const handler = new ControlledHandler()
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, jobHandlers: testHandlers(handler) })
  const org = await orgWithKey(ts, 'Acme Agency')
  const clientId = await aClient(ts, org.key)

  const created = await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId, payload: { services: ['Drain cleaning'] } })
  t.equal(created.statusCode, 202, created.body)
  const { job_id: jobId, status_url } = created.json()
  t.equal(status_url, `/api/v1/jobs/${jobId}`)
  t.equal(created.headers['x-read-your-writes'], 'reached', 'the record is readable at once')

  const ctx = handler.started[0] ?? (await handler.nextStart())
  t.match(ctx.job, { jobId, kind: 'ad_copy', orgId: org.orgId, clientId, payload: { services: ['Drain cleaning'] }, attempt: 1 })
  const running = await waitForJob(ts.app, org.key, jobId, (job) => job.status === 'running' && job.progress?.message === 'warming up')
  t.match(running, {
    job_id: jobId,
    kind: 'ad_copy',
    client_id: clientId,
    status: 'running',
    attempts: 1,
    progress: { done: 1, total: 4, percent: 25 },
  })
  t.notOk('result' in running, 'no result while running')

  handler.release()
  const done = await waitForJob(ts.app, org.key, jobId, 'done')
  t.same(done.result, { echoed: { services: ['Drain cleaning'] }, attempt: 1 })
  t.notOk('progress' in done, 'no progress once finished')
  t.notOk('error' in done)
  t.ok(done.finished_at && done.started_at && done.created_at)

  const events = await streamEvents(ts, `job-${jobId}`)
  t.same(
    events.map((e) => e.type).filter((type) => type !== 'JobProgressed'),
    ['JobRequested', 'JobStarted', 'JobCompleted'],
  )
  t.ok(
    events.every((e) => e.metadata.org_id === org.orgId),
    'every event carries the organization',
  )
  t.match(events.at(-1)!.data, { job_id: jobId, kind: 'ad_copy', client_id: clientId, result: { attempt: 1 } })

  const again = await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId })
  t.equal(again.statusCode, 202, 'the client is free again once its job finished')
})

t.test('a job of another organization answers exactly like a missing one', async (t) => {
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const a = await orgWithKey(ts, 'A')
  const b = await orgWithKey(ts, 'B')
  const created = (await postJob(ts.app, a.key, { kind: 'ad_copy', client_id: await aClient(ts, a.key) })).json()
  const foreign = expectError(t, await getJob(ts.app, b.key, created.job_id), 404, 'not_found', 'another organization')
  const missing = expectError(t, await getJob(ts.app, b.key, created.job_id + 1000), 404, 'not_found', 'missing')
  t.same(withoutIds(foreign, [created.job_id]), withoutIds(missing, [created.job_id + 1000]))
  expectError(t, await cancelJob(ts.app, b.key, created.job_id), 404, 'not_found', 'cancel by another organization')
  t.equal((await getJob(ts.app, ts.platformKey, created.job_id)).statusCode, 200, 'a platform key sees it')
  expectError(t, await getJob(ts.app, a.key, 'abc'), 400, 'validation_failed', 'a job id that is not a number')
})

t.test('cancel: a queued job is cancelled at once; a finished one answers job_already_terminal', async (t) => {
  // No processors: the job stays queued.
  const ts = await startTestSystem(t, { jobHandlers: testHandlers(new ControlledHandler()) })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await aClient(ts, org.key)
  const { job_id: jobId } = (await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId })).json()
  t.equal((await getJob(ts.app, org.key, jobId)).json().status, 'queued')
  const cancelled = await cancelJob(ts.app, org.key, jobId)
  t.equal(cancelled.statusCode, 200)
  t.match(cancelled.json(), { job_id: jobId, status: 'cancelled', cancel_requested: true })
  const again = expectError(t, await cancelJob(ts.app, org.key, jobId), 409, 'job_already_terminal', 'cancel twice')
  t.match(again.detail, /cancelled/)
  t.ok(again.hint, 'with a hint')
  const events = await streamEvents(ts, `job-${jobId}`)
  t.same(
    events.map((e) => e.type),
    ['JobRequested', 'JobCancelled'],
  )
  t.same(events[1]!.data, { job_id: jobId, kind: 'ad_copy', client_id: clientId })
  t.equal((await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId })).statusCode, 202, 'the client is free again')
})

t.test('a cancel reaches the running handler and the job ends cancelled', async (t) => {
  const handler = new ControlledHandler()
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, jobHandlers: testHandlers(handler) })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await aClient(ts, org.key)
  const started = handler.nextStart()
  const { job_id: jobId } = (await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId })).json()
  await started
  await waitForJob(ts.app, org.key, jobId, 'running')
  const asked = await cancelJob(ts.app, org.key, jobId)
  t.equal(asked.statusCode, 202, 'a running job is asked to stop')
  t.match(asked.json(), { status: 'running', cancel_requested: true })
  const again = await cancelJob(ts.app, org.key, jobId)
  t.equal(again.statusCode, 202, 'asking again is harmless')
  const ended = await waitForJob(ts.app, org.key, jobId, 'cancelled')
  t.notOk('error' in ended)
  t.same(handler.seen, [{ jobId, aborted: true, cancelRequested: true }], 'the handler saw its signal aborted and cancelRequested() true')
  const types = (await streamEvents(ts, `job-${jobId}`)).map((e) => e.type).filter((type) => type !== 'JobProgressed')
  t.same(types, ['JobRequested', 'JobStarted', 'JobCancelRequested', 'JobCancelled'])
})

t.test('a handler that throws fails the job with its message', async (t) => {
  const handler = new ControlledHandler()
  handler.outcome = () => {
    throw new Error('the ad platform refused the copy')
  }
  handler.release()
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, jobHandlers: testHandlers(handler) })
  const org = await orgWithKey(ts, 'Acme')
  const { job_id: jobId } = (await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: await aClient(ts, org.key) })).json()
  const failed = await waitForJob(ts.app, org.key, jobId, 'failed')
  t.equal(failed.error, 'the ad platform refused the copy')
  t.equal(failed.failure_reason, 'error')
  t.notOk('result' in failed)
  const last = (await streamEvents(ts, `job-${jobId}`)).at(-1)!
  t.same(
    [last.type, last.data],
    [
      'JobFailed',
      { job_id: jobId, kind: 'ad_copy', client_id: failed.client_id, error: 'the ad platform refused the copy', reason: 'error' },
    ],
  )
  expectError(t, await cancelJob(ts.app, org.key, jobId), 409, 'job_already_terminal', 'cancel a failed job')
})
