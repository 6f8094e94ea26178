import type { Aggregate, Evolving } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { JobEvent } from './events.js'

/**
 * One job: stream `job-<job_id>`.
 *
 *   queued ──start──▶ running ──complete──▶ done
 *     │  ▲              │ │ └──fail (error, watchdog)──▶ failed
 *     │  └─interrupt────┘ └──cancel requested … handler stops──▶ cancelled
 *     └──cancel──▶ cancelled
 *
 * A queued job is cancelled at once (nobody runs it). A running one is asked to stop (JobCancelRequested):
 * its handler sees ctx.signal abort and ctx.cancelRequested() true, and the job ends JobCancelled when it
 * stops (or when the watchdog finds its worker gone). A worker acts on the attempt it started: a late
 * completion or failure of an older attempt (a worker the watchdog gave up on) changes nothing.
 */
export const jobStream = (jobId: number) => `job-${jobId}`

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['done', 'failed', 'cancelled']
export const isTerminal = (status: JobStatus) => TERMINAL_JOB_STATUSES.includes(status)

export interface JobState {
  readonly exists: boolean
  readonly id: number
  readonly kind: string
  readonly clientId: number | null
  readonly status: JobStatus
  /** Starts so far (the current attempt while running). */
  readonly attempts: number
  readonly cancelRequested: boolean
  /** The organization the job was requested in (its first event's metadata); null: no job. */
  readonly orgId: number | null
}

export type JobCommand =
  | {
      type: 'RequestJob'
      job_id: number
      kind: string
      client_id: number | null
      group_id: number | null
      payload: Record<string, unknown>
      meter: boolean
    }
  | { type: 'StartJob'; worker: string }
  | { type: 'ReportProgress'; attempt: number; done: number; total: number; message: string | null }
  | { type: 'CancelJob' }
  | { type: 'CompleteJob'; attempt: number; result: Record<string, unknown> }
  /** A handler that threw (reason error) or a worker gone silent (watchdog). After a cancel request it ends cancelled. */
  | { type: 'FailJob'; attempt: number; error: string; reason: 'error' | 'watchdog' | 'unavailable' }
  | { type: 'InterruptJob'; attempt: number }

export const initialJobState = (): JobState => ({
  exists: false,
  id: 0,
  kind: '',
  clientId: null,
  status: 'queued',
  attempts: 0,
  cancelRequested: false,
  orgId: null,
})

function evolveJob(state: JobState, event: Evolving<JobEvent>): JobState {
  switch (event.type) {
    case 'JobRequested':
      return {
        ...initialJobState(),
        exists: true,
        id: event.data.job_id,
        kind: event.data.kind,
        clientId: event.data.client_id,
        orgId: event.metadata?.org_id ?? state.orgId,
      }
    case 'JobStarted':
      return { ...state, status: 'running', attempts: event.data.attempt }
    case 'JobProgressed':
      return state
    case 'JobCancelRequested':
      return { ...state, cancelRequested: true }
    case 'JobCompleted':
      return { ...state, status: 'done' }
    case 'JobFailed':
      return { ...state, status: 'failed' }
    case 'JobCancelled':
      return { ...state, status: 'cancelled', cancelRequested: true }
    case 'JobInterrupted':
      return { ...state, status: 'queued' }
    default:
      return assertNever(event)
  }
}

/** Failure messages are bounded (they travel in job.failed webhooks). */
const MAX_ERROR = 2000

function decideJob(command: JobCommand, state: JobState): JobEvent[] {
  if (command.type === 'RequestJob') {
    if (state.exists) throw new DomainError('already_exists', 'Already exists', `job ${command.job_id}`)
    const { type: _type, ...data } = command
    return [{ type: 'JobRequested', data }]
  }
  if (!state.exists) throw new DomainError('not_found', 'Not found', `job ${state.id || '?'} not found`)
  const job_id = state.id
  const ids = { job_id, kind: state.kind, client_id: state.clientId }
  const current = (attempt: number) => state.status === 'running' && state.attempts === attempt
  switch (command.type) {
    case 'StartJob':
      if (state.status !== 'queued') {
        throw new DomainError('job_not_queued', 'The job is not queued', `job ${job_id} is ${state.status}`)
      }
      return [{ type: 'JobStarted', data: { job_id, attempt: state.attempts + 1, worker: command.worker } }]
    case 'ReportProgress':
      if (!current(command.attempt)) return []
      return [
        {
          type: 'JobProgressed',
          data: { job_id, attempt: command.attempt, done: command.done, total: command.total, message: command.message },
        },
      ]
    case 'CancelJob':
      if (isTerminal(state.status)) {
        throw new DomainError('job_already_terminal', 'The job has already finished', `job ${job_id} is ${state.status}`)
      }
      if (state.status === 'queued') return [{ type: 'JobCancelled', data: ids }]
      // Running: asked once; asking again changes nothing.
      return state.cancelRequested ? [] : [{ type: 'JobCancelRequested', data: { job_id } }]
    case 'CompleteJob':
      if (!current(command.attempt)) return []
      return [{ type: 'JobCompleted', data: { ...ids, result: command.result } }]
    case 'FailJob':
      if (!current(command.attempt)) return []
      // A handler that stops because it was told to is cancelled, not failed, and so is one whose worker died
      // after the cancel was asked for.
      if (state.cancelRequested) return [{ type: 'JobCancelled', data: ids }]
      return [{ type: 'JobFailed', data: { ...ids, error: command.error.slice(0, MAX_ERROR), reason: command.reason } }]
    case 'InterruptJob':
      if (!current(command.attempt)) return []
      if (state.cancelRequested) return [{ type: 'JobCancelled', data: ids }]
      return [{ type: 'JobInterrupted', data: { job_id, attempt: command.attempt, reason: 'shutdown' } }]
    default:
      return assertNever(command)
  }
}

export const job: Aggregate<JobState, JobCommand, JobEvent> = {
  streamOf: jobStream,
  initialState: initialJobState,
  evolve: evolveJob,
  decide: decideJob,
  orgOf: (state) => state.orgId,
  entity: 'job',
}
