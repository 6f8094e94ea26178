import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'
import { EngineValue } from '../engines.js'

/** A client's cadence: stream `aeo_cadence-<client_id>`. */
export const AeoCadenceSet = z.object({
  client_id: Id,
  enabled: z.boolean(),
  samples_per_month: z.number().int().min(1).max(100),
  engines: z.array(EngineValue).min(1),
  geo_state: z.string().max(100).nullable(),
})

export const aeoCadenceEventSchemas = { AeoCadenceSet } as const
export type AeoCadenceEvent = { type: 'AeoCadenceSet'; data: z.infer<typeof AeoCadenceSet> }

/**
 * A run is one question asked once on one engine: stream `aeo_run-<run_id>`, so a claim, a completion and
 * a cancellation of the same run are decided against each other (optimistic concurrency on the stream).
 * `agent_org_id` is the organization of the key that registered the agent (null: a platform agent).
 */
const Agent = { agent_id: z.string().min(1).max(200), agent_org_id: Id.nullable() }

export const AeoRunQueued = z.object({
  run_id: Id,
  client_id: Id,
  query_id: Id,
  engine: EngineValue,
  month: Month,
  geo_state: z.string().max(100).nullable(),
  priority: z.number().int(),
  /** 1-based sample number of this question × engine in the month. */
  sample: z.number().int().positive(),
  /** Who queued it: the daily sweep or enqueue_due_aeo_runs (a retry stays in the same stream). */
  reason: z.enum(['sweep', 'enqueue']),
})

export const AeoRunClaimed = z.object({
  run_id: Id,
  ...Agent,
  /** 1 for the first claim, counting every claim of the run. */
  attempt: z.number().int().positive(),
  lease_expires_at: z.string(),
})

export const AeoRunStarted = z.object({ run_id: Id, ...Agent })
export const AeoRunCompleted = z.object({ run_id: Id, ...Agent, capture_id: Id })

/**
 * retry: true puts the run back in the queue; false is final (status failed). retry_at (with retry): the
 * run is not claimable before then (the backoff schedule, or the provider's Retry-After). Optional because
 * events recorded before backoff existed have none: such a run was claimable at once, and still is.
 */
export const AeoRunFailed = z.object({
  run_id: Id,
  ...Agent,
  error: z.string().max(2000),
  attempt: z.number().int().positive(),
  retry: z.boolean(),
  retry_at: z.string().nullable().optional(),
})

/** The claim's lease ran out without a completion: the run is queued again. */
export const AeoRunClaimExpired = z.object({ run_id: Id, ...Agent })

export const AeoRunCancelled = z.object({
  run_id: Id,
  reason: z.enum(['requested', 'question_inactive', 'question_deleted', 'client_paused', 'client_deleted', 'cadence_disabled']),
})

export const aeoRunEventSchemas = {
  AeoRunQueued,
  AeoRunClaimed,
  AeoRunStarted,
  AeoRunCompleted,
  AeoRunFailed,
  AeoRunClaimExpired,
  AeoRunCancelled,
} as const

type RunSchemas = typeof aeoRunEventSchemas
export type AeoRunEvent = { [K in keyof RunSchemas]: { type: K; data: z.infer<RunSchemas[K]> } }[keyof RunSchemas]

/**
 * An agent: stream `aeo_agent-<owner>-<agent_id>` (owner: the org id, or `platform`). Registered on first
 * claim; capabilities recorded when they change; `AeoAgentSeen` at most once a minute marks it online.
 */
export const AgentCapabilities = z.object({
  engines: z.array(EngineValue).min(1),
  geo: z.string().max(100),
  max_per_day: z.number().int().positive().nullable(),
})

export const AeoAgentRegistered = z.object({ ...Agent, capabilities: AgentCapabilities })
export const AeoAgentCapabilitiesChanged = z.object({ ...Agent, capabilities: AgentCapabilities })
export const AeoAgentSeen = z.object({ ...Agent })

export const aeoAgentEventSchemas = { AeoAgentRegistered, AeoAgentCapabilitiesChanged, AeoAgentSeen } as const
type AgentSchemas = typeof aeoAgentEventSchemas
export type AeoAgentEvent = { [K in keyof AgentSchemas]: { type: K; data: z.infer<AgentSchemas[K]> } }[keyof AgentSchemas]
