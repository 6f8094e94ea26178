import { systemContext } from '../../commands/command-handler.js'
import { handleJobCommand, loadJob } from '../../commands/jobs/job.js'
import { isTerminal } from '../../domain/jobs/job.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { releaseWork, removeWork, staleWork } from './work-table.js'
import { sleep } from '../../commands/sleep.js'

const BATCH = 100

/**
 * One watchdog pass: every running job whose lease ran out (its worker stopped heart-beating: crashed,
 * killed, cut off from the database) is failed with reason watchdog, or cancelled when a cancel was asked
 * for. The job's stream decides, so a pass racing a worker's own ending, or another process's watchdog,
 * changes nothing twice. Returns the number of jobs it ended.
 */
export async function watchdogPass(deps: ProcessorDeps): Promise<number> {
  const context = systemContext('job-watchdog')
  let ended = 0
  for (const row of await staleWork(deps.db, BATCH)) {
    const { state } = await loadJob(deps.write, row.job_id)
    if (state.exists && state.status === 'running') {
      const outcome = await handleJobCommand(
        deps.write,
        context,
        row.job_id,
        {
          type: 'FailJob',
          attempt: state.attempts,
          reason: 'watchdog',
          error: `the job's worker stopped (no heartbeat for ${deps.jobs.staleSeconds} s); request the job again`,
        },
        null,
      )
      if (outcome.events.length > 0) {
        ended++
        deps.log.warn({ job_id: row.job_id, worker: row.worker, status: outcome.state.status }, 'watchdog ended a job whose worker stopped')
      }
      await removeWork(deps.db, row.job_id, row.worker)
    } else if (state.exists && state.status === 'queued') {
      // Interrupted by a shutdown that died before it released the row: claimable again.
      await releaseWork(deps.db, row.job_id, row.worker)
    } else if (!state.exists || isTerminal(state.status)) {
      await removeWork(deps.db, row.job_id, row.worker)
    }
  }
  return ended
}

/** The watchdog loop: a pass every heartbeat interval, in every processors process (passes are idempotent). */
export function jobWatchdogProcessor(deps: ProcessorDeps): Processor {
  let controller: AbortController | undefined
  let loop: Promise<void> | undefined
  return {
    name: 'job-watchdog',
    start() {
      if (loop) return
      const c = new AbortController()
      controller = c
      loop = (async () => {
        while (!c.signal.aborted) {
          try {
            await watchdogPass(deps)
          } catch (error) {
            if (!c.signal.aborted) deps.log.error({ err: error }, 'job watchdog pass failed; trying again next time')
          }
          await sleep(deps.jobs.heartbeatSeconds * 1000, c.signal)
        }
      })()
    },
    async stop() {
      controller?.abort()
      await loop
      loop = undefined
    },
  }
}
