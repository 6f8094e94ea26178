import { systemContext } from '../../../commands/command-handler.js'
import { cancelJob, handleJobCommand } from '../../../commands/jobs/job.js'
import { requestJob } from '../../../commands/jobs/request.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The jobs part of the realistic log, through the commands (the test system runs no job handlers): every
 * ending a job can have — done with progress, failed by its handler and by the watchdog, cancelled while
 * queued and while running, interrupted by a shutdown and resumed — on clients of two organizations and
 * one organization-level job.
 */
export async function writeJobsLog(ts: TestSystem, log: RealisticLog): Promise<void> {
  const write = ts.system.write
  const api = { actor: { kind: 'api_key' as const, id: 1 }, requestId: 'realistic', correlationId: 'realistic', causationId: null }
  const worker = systemContext('job-runner')
  const [orgA, orgB] = log.orgIds as [number, number]
  const [plumbers, , , , bravo] = log.clientIds as [number, number, number, number, number]
  const request = (orgId: number, kind: string, clientId: number | null, payload: Record<string, unknown> = {}) =>
    requestJob(write, api, { orgId, kind, clientId, groupId: null, payload, meter: false, sandbox: false }).then((r) => r.jobId)
  const run = async (jobId: number) =>
    (await handleJobCommand(write, worker, jobId, { type: 'StartJob', worker: 'realistic:1' }, null)).state.attempts

  // Done, with progress on the way (twice the same value: each is its own event).
  const done = await request(orgA, 'ad_copy', plumbers, { services: ['Drain cleaning'] })
  const attempt = await run(done)
  await handleJobCommand(write, worker, done, { type: 'ReportProgress', attempt, done: 1, total: 3, message: 'one group' }, null)
  await handleJobCommand(write, worker, done, { type: 'ReportProgress', attempt, done: 3, total: 3, message: null }, null)
  await handleJobCommand(write, worker, done, { type: 'CompleteJob', attempt, result: { ad_groups: 3, set_id: 9 } }, null)
  await handleJobCommand(write, worker, done, { type: 'CompleteJob', attempt, result: { ad_groups: 3 } }, null) // late repeat: nothing

  // Failed by its handler, then by the watchdog after a shutdown interrupted it and it was resumed.
  const failed = await request(orgA, 'ad_copy', plumbers)
  await handleJobCommand(
    write,
    worker,
    failed,
    { type: 'FailJob', attempt: await run(failed), error: 'provider refused', reason: 'error' },
    null,
  )
  const resumed = await request(orgB, 'keyword_generation', bravo, { max_keywords: 5 })
  await handleJobCommand(write, worker, resumed, { type: 'InterruptJob', attempt: await run(resumed) }, null)
  await handleJobCommand(
    write,
    worker,
    resumed,
    { type: 'FailJob', attempt: await run(resumed), error: 'worker stopped', reason: 'watchdog' },
    null,
  )

  // Cancelled while queued, and while running (asked, then the handler stops).
  await cancelJob(write, api, await request(orgA, 'export_org', null), orgA)
  const running = await request(orgA, 'ad_copy', plumbers)
  const runningAttempt = await run(running)
  await cancelJob(write, api, running, orgA)
  await cancelJob(write, api, running, orgA) // asked twice: nothing more
  await handleJobCommand(write, worker, running, { type: 'FailJob', attempt: runningAttempt, error: 'aborted', reason: 'error' }, null)
  // One left queued.
  await request(orgB, 'ad_copy', bravo, { areas: ['Miami'] })
}
