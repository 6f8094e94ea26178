/**
 * The job RPCs (endpoints.md "Jobs and batches"): is_job_cancel_requested, get_jobs_progress_for_org
 * and list_job_months_for_org, confined to the caller's organization.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { expectError, orgWithKey } from './helpers.js'
import { aClient, cancelJob, ControlledHandler, getJob, postJob, QUICK_JOBS, testHandlers, waitForJob } from './jobs-helpers.js'

t.test('the job RPCs', async (t) => {
  const handler = new ControlledHandler()
  const ts = await startTestSystem(t, { runProcessors: true, jobs: QUICK_JOBS, jobHandlers: testHandlers(handler) })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await aClient(ts, org.key)
  const queuedThenCancelled = (await postJob(ts.app, org.key, { kind: 'export_org' })).json().job_id
  const started = handler.nextStart()
  const running = (await postJob(ts.app, org.key, { kind: 'ad_copy', client_id: clientId })).json().job_id
  await started
  await waitForJob(ts.app, org.key, running, (job) => job.progress?.message === 'warming up')

  t.same(
    (await ts.call<any[]>('get_jobs_progress_for_org', {}, org.key)).find((j) => j.job_id === running),
    (await getJob(ts.app, org.key, running)).json(),
    'the same records as GET',
  )
  t.equal(await ts.call('is_job_cancel_requested', { job_id: running }, org.key), false)
  expectError(t, await ts.rpc('is_job_cancel_requested', { job_id: running }, other.key), 404, 'not_found', 'another organization')

  const progress = await ts.call<any[]>('get_jobs_progress_for_org', {}, org.key)
  t.same(progress.map((j) => j.job_id).sort(), [queuedThenCancelled, running].sort(), 'both active jobs')
  t.same(await ts.call('get_jobs_progress_for_org', {}, other.key), [], "nothing of another organization's")
  expectError(
    t,
    await ts.rpc('get_jobs_progress_for_org', {}, ts.platformKey),
    400,
    'org_id_required',
    'a platform key names the organization',
  )

  t.equal((await cancelJob(ts.app, org.key, running)).statusCode, 202)
  t.equal(await ts.call('is_job_cancel_requested', { job_id: running }, org.key), true, 'seen at once')
  await waitForJob(ts.app, org.key, running, 'cancelled')
  // The export_org job (no handler blocks it: the same ControlledHandler) is released and finishes.
  handler.release()
  await waitForJob(ts.app, org.key, queuedThenCancelled, 'done')
  t.same(
    (await ts.call<any[]>('get_jobs_progress_for_org', { recent_minutes: 0 }, org.key)).map((j) => j.job_id),
    [],
    'no active job left',
  )
  t.equal(
    (await ts.call<any[]>('get_jobs_progress_for_org', { org_id: org.orgId }, ts.platformKey)).length,
    2,
    'both finished in the last hour',
  )

  const month = new Date().toISOString().slice(0, 7)
  t.same(await ts.call('list_job_months_for_org', {}, org.key), [{ month, jobs: 2, done: 1, failed: 0, cancelled: 1 }])
  t.same(await ts.call('list_job_months_for_org', {}, other.key), [])
})
