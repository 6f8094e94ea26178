import { randomBytes } from 'node:crypto'
import os from 'node:os'
import type { CommandContext } from '../../commands/command-handler.js'
import { handleJobCommand, loadJob } from '../../commands/jobs/job.js'
import { loadStream } from '../../commands/load-stream.js'
import { jobStream, isTerminal } from '../../domain/jobs/job.js'
import type { JobKind } from '../../domain/jobs/kinds.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import type { JobContext, JobHandler, JobHandlers, JobRun } from './handler.js'
import { claimWork, releaseWork, removeWork, renewLease, type WorkRow } from './work-table.js'
import { sleep } from '../../commands/sleep.js'
import { clientSitesOf, sitePublisher } from '../site-edits/site-publisher.js'

/** How often an idle worker looks for queued jobs. */
const POLL_MS = 500
/** Progress events are recorded at most this often per job (the latest value wins; the heartbeat flushes it). */
const PROGRESS_INTERVAL_MS = 1000
/** How long a shutdown waits for aborted handlers to return before it records them interrupted anyway. */
const SHUTDOWN_GRACE_MS = 5000
/** How long the handler's settle() waits for the read models. */
const SETTLE_TIMEOUT_MS = 30_000

/** Why a handler's signal was aborted. */
type StopReason = 'cancel' | 'shutdown' | 'lost'

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

/**
 * The job runner: claims queued jobs from job_work (FOR UPDATE SKIP LOCKED, up to workerConcurrency at a
 * time per process), records JobStarted, runs the kind's handler, heart-beats while it runs (lease renewal,
 * cancel check, progress flush) and records how it ended: JobCompleted with its result, JobFailed with the
 * error it threw, or JobCancelled after a cancel. It never leaves a job running: whatever the handler does,
 * the job ends in one of those, or, if this process dies, the watchdog fails it.
 *
 * Shutdown stops claiming, aborts the handlers in hand and records each job JobInterrupted (queued again),
 * so the next worker resumes it as a new attempt. A crash (kill -9) is different: the lease runs out and
 * the watchdog fails the job, because a job that was running when its process died may be what killed it
 * (an export that exhausted memory), and re-running it everywhere would take the fleet down with it.
 */
export class JobRunner implements Processor {
  readonly name = 'job-runner'
  readonly worker = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  private readonly inHand = new Map<number, { stop: (reason: StopReason) => void; done: Promise<void> }>()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  private wake: (() => void) | undefined

  /** One site publisher for every job of this runner (its WordPress clients are made per push). */
  private readonly publishing: Pick<JobContext, 'sitePublisher' | 'sites'>

  constructor(
    private readonly deps: ProcessorDeps,
    private readonly handlers: JobHandlers,
  ) {
    const sites = clientSitesOf(deps.write, deps.publishing, deps.serviceKey)
    this.publishing = { sites, sitePublisher: sitePublisher({ read: deps.read, sites }) }
  }

  private get settings() {
    return this.deps.jobs
  }

  private get leaseMs() {
    return this.settings.staleSeconds * 1000
  }

  start(): void {
    if (this.loop) return
    const controller = new AbortController()
    this.controller = controller
    this.loop = this.run(controller.signal)
  }

  async stop(): Promise<void> {
    this.controller?.abort()
    await this.loop?.catch(() => {})
    this.loop = undefined
    const inHand = [...this.inHand.values()]
    for (const job of inHand) job.stop('shutdown')
    await Promise.all(inHand.map((job) => job.done))
  }

  private async run(signal: AbortSignal): Promise<void> {
    const kinds = Object.keys(this.handlers)
    while (!signal.aborted) {
      let claimed: WorkRow[] = []
      try {
        claimed = await claimWork(this.deps.db, this.worker, kinds, this.settings.workerConcurrency - this.inHand.size, this.leaseMs)
      } catch (error) {
        if (!signal.aborted) this.deps.log.error({ err: error }, 'claiming jobs failed; retrying')
      }
      for (const row of claimed) this.begin(row)
      if (claimed.length === 0 || this.inHand.size >= this.settings.workerConcurrency) {
        await sleep(POLL_MS, signal, (wake) => (this.wake = wake))
        this.wake = undefined
      }
    }
  }

  private begin(row: WorkRow): void {
    let stop: (reason: StopReason) => void = () => {}
    const stopped = new Promise<StopReason>((resolve) => (stop = resolve))
    const done = this.execute(row, stopped)
      .catch((error) =>
        this.deps.log.error({ err: error, job_id: row.job_id }, 'the job runner failed on a job; the watchdog will settle it'),
      )
      .finally(() => {
        this.inHand.delete(row.job_id)
        this.wake?.()
      })
    this.inHand.set(row.job_id, { stop: (reason) => stop(reason), done })
  }

  private async execute(row: WorkRow, stopped: Promise<StopReason>): Promise<void> {
    const { deps } = this
    const jobId = row.job_id
    const loaded = await loadStream(deps.write, jobStream(jobId))
    const requested = loaded.events[0]
    const context: CommandContext = {
      actor: { kind: 'system', id: `job-${jobId}` },
      requestId: null,
      correlationId: typeof requested?.metadata?.correlation_id === 'string' ? requested.metadata.correlation_id : `job-${jobId}`,
      causationId: requested?.id ?? null,
    }
    let attempt: number
    try {
      const started = await handleJobCommand(deps.write, context, jobId, { type: 'StartJob', worker: this.worker }, null)
      attempt = started.state.attempts
    } catch (error) {
      // Cancelled (or finished) before a worker got to it: nothing to run.
      if (error instanceof DomainError) {
        const { state } = await loadJob(deps.write, jobId)
        if (!state.exists || isTerminal(state.status)) await removeWork(deps.db, jobId, this.worker)
        else await releaseWork(deps.db, jobId, this.worker)
        return
      }
      throw error
    }
    const handler = this.handlers[row.kind as JobKind] as JobHandler | undefined
    const log = deps.log.child({ job_id: jobId, kind: row.kind, attempt })
    const controller = new AbortController()
    let stopReason: StopReason | null = null
    const abort = (reason: StopReason) => {
      if (stopReason !== null) return
      stopReason = reason
      controller.abort(reason)
    }
    void stopped.then(abort)

    // Progress: the latest value is recorded at most once a second; the heartbeat records what is left.
    let latest: { done: number; total: number; message: string | null } | null = null
    let lastRecorded = 0
    const recordProgress = async () => {
      if (latest === null) return
      const value = latest
      latest = null
      lastRecorded = Date.now()
      await handleJobCommand(deps.write, context, jobId, { type: 'ReportProgress', attempt, ...value }, null)
    }
    const cancelRequested = async () => {
      const { state } = await loadJob(deps.write, jobId)
      return state.cancelRequested || state.status === 'cancelled'
    }

    // The heartbeat: renew the lease, notice a cancel (or the watchdog having given up on us), flush progress.
    // A handler that ignores the abort for staleSeconds after a cancel is abandoned and the job cancelled.
    let abandon: () => void = () => {}
    const abandoned = new Promise<'abandoned'>((resolve) => (abandon = () => resolve('abandoned')))
    const beat = new AbortController()
    const heartbeat = (async () => {
      let cancelSeenAt: number | null = null
      while (!beat.signal.aborted) {
        await sleep(this.settings.heartbeatSeconds * 1000, beat.signal)
        if (beat.signal.aborted) break
        try {
          if (!(await renewLease(deps.db, jobId, this.worker, this.leaseMs))) {
            log.warn('the job was taken from this worker (lease lost); stopping it')
            abort('lost')
            abandon()
            break
          }
          if (cancelSeenAt === null && (await cancelRequested())) {
            cancelSeenAt = Date.now()
            abort('cancel')
          }
          if (cancelSeenAt !== null && Date.now() - cancelSeenAt > this.leaseMs) abandon()
          await recordProgress()
        } catch (error) {
          log.warn({ err: error }, 'job heartbeat failed; retrying at the next beat')
        }
      }
    })()

    const jobContext: JobContext = {
      job: {
        jobId,
        kind: row.kind as JobKind,
        orgId: row.org_id,
        clientId: row.client_id,
        groupId: requested?.type === 'JobRequested' ? requested.data.group_id : null,
        payload: (requested?.type === 'JobRequested' ? requested.data.payload : {}) as JobRun['payload'],
        attempt,
      },
      store: deps.store,
      write: deps.write,
      command: context,
      read: deps.read,
      db: deps.db,
      blobs: deps.blobs,
      languageModel: deps.languageModel,
      sitePublisher: this.publishing.sitePublisher,
      sites: this.publishing.sites,
      log,
      clock: deps.write.clock,
      signal: controller.signal,
      progress: async (done, total, message) => {
        if (!Number.isFinite(done) || !Number.isFinite(total) || done < 0 || total < 0) return
        latest = { done, total, message: message === undefined ? null : message.slice(0, 500) }
        if (Date.now() - lastRecorded >= PROGRESS_INTERVAL_MS) await recordProgress()
      },
      cancelRequested: async () => {
        const yes = await cancelRequested()
        if (yes) abort('cancel')
        return yes
      },
      settle: async (position) => {
        if (position !== null) await deps.watermark.waitFor(position, SETTLE_TIMEOUT_MS)
      },
    }

    type Ending = { ok: true; result: Record<string, unknown> } | { ok: false; error: unknown } | 'abandoned'
    const running: Promise<Ending> = handler
      ? Promise.resolve()
          .then(() => handler(jobContext))
          .then((result) => toResult(result))
          .then(
            (result): Ending => ({ ok: true, result }),
            (error: unknown): Ending => ({ ok: false, error }),
          )
      : Promise.resolve({ ok: false, error: new Error(`no handler for job kind ${row.kind} in this process`) })
    // A shutdown gives handlers a grace period to return; after it the job is recorded interrupted anyway.
    const shutdownDeadline = stopped.then((reason) =>
      reason === 'shutdown'
        ? new Promise<'abandoned'>((resolve) => setTimeout(() => resolve('abandoned'), SHUTDOWN_GRACE_MS))
        : new Promise<never>(() => {}),
    )
    const ending = await Promise.race([running, abandoned, shutdownDeadline])
    beat.abort()
    await heartbeat

    if (stopReason === 'lost') return // the watchdog already settled this job
    await recordProgress().catch(() => {})
    if (ending !== 'abandoned' && ending.ok) {
      await handleJobCommand(deps.write, context, jobId, { type: 'CompleteJob', attempt, result: ending.result }, null)
    } else if (stopReason === 'shutdown') {
      await handleJobCommand(deps.write, context, jobId, { type: 'InterruptJob', attempt }, null)
      const { state } = await loadJob(deps.write, jobId)
      if (state.status === 'queued') await releaseWork(deps.db, jobId, this.worker)
      else await removeWork(deps.db, jobId, this.worker)
      log.info({ status: state.status }, 'job interrupted by shutdown')
      return
    } else {
      const error = ending === 'abandoned' ? 'the job did not stop within the grace period after its cancel' : messageOf(ending.error)
      // After a cancel this records JobCancelled (decided in domain/jobs/job.ts).
      await handleJobCommand(
        deps.write,
        context,
        jobId,
        { type: 'FailJob', attempt, error, reason: handler ? 'error' : 'unavailable' },
        null,
      )
      if (ending !== 'abandoned' && stopReason === null) log.warn({ err: ending.error }, 'job failed')
    }
    await removeWork(deps.db, jobId, this.worker)
  }
}

/** A handler's result as JSON: an object (anything else is wrapped), with whatever JSON cannot hold dropped. */
function toResult(value: unknown): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(value ?? {})) as unknown
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : { value: json }
}
