import { z } from 'zod'
import { Id } from '../shared/values.js'

/**
 * A job: stream `job-<job_id>`. Every transition is an event here, so the request, the worker's start, a
 * cancel and the end are decided against each other (optimistic concurrency on the stream). The webhooks
 * area maps JobCompleted / JobFailed / JobCancelled to job.completed / job.failed / job.cancelled: their
 * type names and fields are a contract.
 */
const Kind = z.string().min(1).max(100)
const Payload = z.record(z.string(), z.unknown())

export const JobRequested = z.object({
  job_id: Id,
  kind: Kind,
  client_id: Id.nullable(),
  /** bulk_strategist's target group (no kind takes one yet); null otherwise. */
  group_id: Id.nullable(),
  payload: Payload,
  /** The request's `meter` flag (metered jobs count towards the organization's usage). */
  meter: z.boolean(),
})

/** A worker began (or, after a graceful shutdown interrupted it, resumed) the job. */
export const JobStarted = z.object({
  job_id: Id,
  /** 1 for the first start, counting every start of the job. */
  attempt: z.number().int().positive(),
  /** Which worker process took it (host:pid:n), for operators. */
  worker: z.string().min(1).max(200),
})

/** Live progress; recorded at most about once a second per job (the runner throttles it). */
export const JobProgressed = z.object({
  job_id: Id,
  attempt: z.number().int().positive(),
  done: z.number().nonnegative(),
  total: z.number().nonnegative(),
  message: z.string().max(500).nullable(),
})

/** A cancel of a running job: the handler is told (ctx.signal, ctx.cancelRequested()) and ends JobCancelled. */
export const JobCancelRequested = z.object({ job_id: Id })

export const JobCompleted = z.object({
  job_id: Id,
  kind: Kind,
  client_id: Id.nullable(),
  result: Payload,
})

/**
 * error: the handler threw (its message); watchdog: the worker stopped heart-beating (a crash, a kill -9);
 * unavailable: no handler for the kind anywhere it could run.
 */
export const JobFailureReason = z.enum(['error', 'watchdog', 'unavailable'])

export const JobFailed = z.object({
  job_id: Id,
  kind: Kind,
  client_id: Id.nullable(),
  error: z.string().max(2000),
  reason: JobFailureReason,
})

export const JobCancelled = z.object({
  job_id: Id,
  kind: Kind,
  client_id: Id.nullable(),
})

/** A graceful shutdown stopped the job's worker: the job is queued again and resumed by the next worker. */
export const JobInterrupted = z.object({
  job_id: Id,
  attempt: z.number().int().positive(),
  reason: z.enum(['shutdown']),
})

export const jobEventSchemas = {
  JobRequested,
  JobStarted,
  JobProgressed,
  JobCancelRequested,
  JobCompleted,
  JobFailed,
  JobCancelled,
  JobInterrupted,
} as const

type JobSchemas = typeof jobEventSchemas
export type JobEvent = { [K in keyof JobSchemas]: { type: K; data: z.infer<JobSchemas[K]> } }[keyof JobSchemas]

/**
 * The slot of one client (or, for kinds about the organization, one organization): stream
 * `job_slot-<key>`. Taking it is a compare-and-set append, so of any number of concurrent requests on any
 * number of API processes exactly one wins; the others see it held (409 job_already_running).
 */
export const JobSlotTaken = z.object({
  slot: z.string().min(1).max(100),
  job_id: Id,
  kind: Kind,
  /** Taken by the public sandbox key (its exports are limited to one per 10 minutes). */
  sandbox: z.boolean(),
  /** When (ISO 8601): a slot whose job was never recorded (a crash in between) is free again a minute later. */
  taken_at: z.string(),
})

export const jobSlotEventSchemas = { JobSlotTaken } as const
export type JobSlotEvent = { type: 'JobSlotTaken'; data: z.infer<typeof JobSlotTaken> }
