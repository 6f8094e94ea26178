import { z } from 'zod'
import { MAX_KEYWORDS_PER_CLIENT } from '../../keywords/keyword-set.js'
import { Id } from '../../shared/values.js'
import { RankDate, RankDevice } from '../ranks/rank-row.js'

/**
 * Rank checks: a client's cadence (stream `rank_cadence-<client_id>`) and its checks (stream
 * `rank_checks-<client_id>`, every check of the client in one stream, so "one open check per client" and
 * the claim of a check by one worker are each one decision).
 */

export const RankFrequency = z.enum(['daily', 'weekly', 'off'])
export type RankFrequency = z.infer<typeof RankFrequency>

/** The coded reasons a check, or one task of it, fails; what get_rank_check shows in `error.code`. */
export const RankCheckErrorCode = z.enum([
  /** The provider refused the credentials (HTTP 401, DataForSEO 40100). */
  'rank_provider_unauthorized',
  /** The provider wants payment: HTTP 402, DataForSEO 40200/40210, SerpApi "run out of searches". */
  'rank_provider_payment_required',
  /** 5xx, timeouts, 429s and network errors, still failing after every retry. */
  'rank_provider_unavailable',
  /** The provider refused this one search (an unknown location, a malformed keyword). */
  'rank_provider_rejected',
  /** Neither DataForSEO nor SerpApi is configured on the processors. */
  'rank_provider_not_configured',
  /** Workers holding the check stopped (crashed, killed) too many times. */
  'rank_check_interrupted',
  /** The client was deleted before the check ran. */
  'client_deleted',
  /** The rank could not be recorded (the keyword was deleted meanwhile). */
  'rank_record_refused',
])
export type RankCheckErrorCode = z.infer<typeof RankCheckErrorCode>

export const RankCheckError = z.object({ code: RankCheckErrorCode, message: z.string().max(1000) })
export type RankCheckError = z.infer<typeof RankCheckError>

export const RankProviderName = z.enum(['dataforseo', 'serpapi'])
export type RankProviderName = z.infer<typeof RankProviderName>

/** set_rank_cadence: how often checks are queued for the client, and for which devices. `off` queues none. */
export const RankCadenceSet = z.object({
  client_id: Id,
  frequency: RankFrequency,
  devices: z.array(RankDevice).min(1).max(2),
})

/** A check was queued, by run_rank_check or by the cadence, for one UTC day (kept through retries). */
export const RankCheckQueued = z.object({
  check_id: Id,
  client_id: Id,
  date: RankDate,
  trigger: z.enum(['manual', 'cadence']),
  devices: z.array(RankDevice).min(1).max(2),
})

/**
 * What the check covers, fixed when a worker first takes it: the keywords active then × the client's
 * locations then (empty: one national search) × the devices. A resumed check keeps it.
 */
export const RankCheckPlanned = z.object({
  check_id: Id,
  client_id: Id,
  keyword_ids: z.array(Id).max(MAX_KEYWORDS_PER_CLIENT),
  location_ids: z.array(Id).max(1000),
  devices: z.array(RankDevice).min(1).max(2),
  tasks_total: z.number().int().min(0),
})

/** Counts every progress, completion and failure carries (absolute, so a projection sets them). */
const Counts = {
  /** Tasks whose rank is recorded for the check's date (by this check or before it, on a resume). */
  tasks_done: z.number().int().min(0),
  /** Tasks that failed in the current attempt. */
  tasks_failed: z.number().int().min(0),
  /** Provider calls made, every attempt of every task counted. */
  provider_calls: z.number().int().min(0),
  /** Calls that were retries of a failed call. */
  retries: z.number().int().min(0),
}

/**
 * A worker took the check: the first time, or again after the previous worker's lease ran out (it crashed or
 * was killed). `attempt` counts the takes; `tasks_recorded`: ranks already recorded for the date, skipped.
 */
export const RankCheckStarted = z.object({
  check_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  provider: RankProviderName,
  worker: z.string().min(1).max(200),
  lease_expires_at: z.string(),
  tasks_recorded: z.number().int().min(0),
})

/** Progress of the worker holding the check, also its heartbeat (the lease moves on). */
export const RankCheckProgressed = z.object({
  check_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  lease_expires_at: z.string(),
  ...Counts,
})

/** One keyword × location × device that could not be checked; the check goes on with the others. */
export const RankCheckTaskFailed = z.object({
  check_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  keyword_id: Id,
  location_id: Id.nullable(),
  device: RankDevice,
  error: RankCheckError,
  /** Provider calls spent on the task. */
  tries: z.number().int().min(0),
})

export const RankCheckCompleted = z.object({
  check_id: Id,
  client_id: Id,
  attempt: z.number().int().positive(),
  ...Counts,
})

/** The check ended without finishing: the provider refused the credentials or payment, or stayed down. */
export const RankCheckFailed = z.object({
  check_id: Id,
  client_id: Id,
  /** 0: it failed before any worker started it. */
  attempt: z.number().int().min(0),
  error: RankCheckError,
  ...Counts,
})

export const rankChecksEventSchemas = {
  RankCadenceSet,
  RankCheckQueued,
  RankCheckPlanned,
  RankCheckStarted,
  RankCheckProgressed,
  RankCheckTaskFailed,
  RankCheckCompleted,
  RankCheckFailed,
} as const

export type RankCadenceEvent = { type: 'RankCadenceSet'; data: z.infer<typeof RankCadenceSet> }

type CheckSchemas = Omit<typeof rankChecksEventSchemas, 'RankCadenceSet'>
export type RankCheckEvent = { [K in keyof CheckSchemas]: { type: K; data: z.infer<CheckSchemas[K]> } }[keyof CheckSchemas]
export type RankCheckEventOf<K extends RankCheckEvent['type']> = Extract<RankCheckEvent, { type: K }>
