import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { Engine } from '../engines.js'
import { retryAt } from './backoff.js'
import type { AeoRunEvent } from './events.js'

/**
 * One AI Visibility run (one question asked once on one engine): stream `aeo_run-<run_id>`. Claim,
 * start, completion, failure, expiry and cancellation of the same run are decided against each other
 * here, and the stream's expected revision makes concurrent writers win or lose cleanly.
 *
 *   queued ──claim──▶ claimed ──start──▶ running ──complete──▶ done
 *     ▲  │              │ │                │ │
 *     │  └─cancel─▶ cancelled               │ └─fail (attempts left)──▶ queued
 *     └──────────── expire / fail (retry) ◀─┘   fail (no attempts left) ──▶ failed
 *
 * A run queued again by a failure carries a retry time (retryAt) and cannot be claimed before it. An
 * expired claim is queued again without one: its lease already kept it out of the queue for a while.
 */
export const runStream = (runId: number) => `aeo_run-${runId}`

export type RunStatus = 'queued' | 'claimed' | 'running' | 'done' | 'failed' | 'cancelled'

/** Who holds a claim: the agent's own id and the organization of the key that registered it (null: platform). */
export interface AgentRef {
  readonly agent_id: string
  readonly agent_org_id: number | null
}

export interface RunState {
  readonly exists: boolean
  readonly id: number
  readonly clientId: number
  readonly queryId: number
  readonly engine: Engine | null
  readonly month: string
  readonly geoState: string | null
  readonly status: RunStatus
  /** The agent holding the current claim (claimed, running) or that finished it (done, failed). */
  readonly agent: AgentRef | null
  /** Claims so far, counting every claim of the run. */
  readonly attempts: number
  readonly leaseExpiresAt: string | null
  readonly captureId: number | null
  readonly error: string | null
  /** A queued run after a failure: not claimable before this time (ISO 8601); null: claimable now. */
  readonly retryAt: string | null
  /** The organization the run was queued in (its first event's metadata); null: no run. */
  readonly orgId: number | null
}

export type CancelReason = 'requested' | 'question_inactive' | 'question_deleted' | 'client_paused' | 'client_deleted' | 'cadence_disabled'

export type RunCommand =
  | {
      type: 'QueueRun'
      run_id: number
      client_id: number
      query_id: number
      engine: Engine
      month: string
      geo_state: string | null
      priority: number
      sample: number
      reason: 'sweep' | 'enqueue'
    }
  /** `now`: the claim's time; a run waiting for its retry time is not claimable before it. */
  | { type: 'ClaimRun'; agent: AgentRef; lease_expires_at: string; now: string }
  | { type: 'StartRun'; agent: AgentRef }
  | { type: 'CompleteRun'; agent: AgentRef; capture_id: number }
  /**
   * Retried after `backoff_seconds` (per attempt, the last entry repeating) from `now`, or after
   * `retry_after_seconds` when given (a provider's Retry-After), while attempts are left.
   */
  | {
      type: 'FailRun'
      agent: AgentRef
      error: string
      max_attempts: number
      now: string
      backoff_seconds: readonly number[]
      retry_after_seconds?: number | null | undefined
    }
  /** Returns the run to the queue when its lease ran out at `now` (or fails it when no attempts are left). */
  | { type: 'ExpireClaim'; now: string; max_attempts: number }
  | { type: 'CancelRun'; reason: CancelReason }

export const initialRunState = (): RunState => ({
  exists: false,
  id: 0,
  clientId: 0,
  queryId: 0,
  engine: null,
  month: '',
  geoState: null,
  status: 'queued',
  agent: null,
  attempts: 0,
  leaseExpiresAt: null,
  captureId: null,
  error: null,
  retryAt: null,
  orgId: null,
})

const sameAgent = (a: AgentRef | null, b: AgentRef) => a !== null && a.agent_id === b.agent_id && a.agent_org_id === b.agent_org_id

const agentOf = (data: AgentRef): AgentRef => ({ agent_id: data.agent_id, agent_org_id: data.agent_org_id })

function evolveRun(state: RunState, event: Evolving<AeoRunEvent>): RunState {
  switch (event.type) {
    case 'AeoRunQueued': {
      const d = event.data
      return {
        ...initialRunState(),
        orgId: event.metadata?.org_id ?? state.orgId,
        exists: true,
        id: d.run_id,
        clientId: d.client_id,
        queryId: d.query_id,
        engine: d.engine,
        month: d.month,
        geoState: d.geo_state,
      }
    }
    case 'AeoRunClaimed':
      return {
        ...state,
        status: 'claimed',
        agent: agentOf(event.data),
        attempts: event.data.attempt,
        leaseExpiresAt: event.data.lease_expires_at,
        retryAt: null,
      }
    case 'AeoRunStarted':
      return { ...state, status: 'running' }
    case 'AeoRunCompleted':
      return { ...state, status: 'done', captureId: event.data.capture_id, leaseExpiresAt: null, error: null }
    case 'AeoRunFailed':
      return event.data.retry
        ? { ...state, status: 'queued', agent: null, leaseExpiresAt: null, error: event.data.error, retryAt: event.data.retry_at ?? null }
        : { ...state, status: 'failed', leaseExpiresAt: null, error: event.data.error }
    case 'AeoRunClaimExpired':
      return { ...state, status: 'queued', agent: null, leaseExpiresAt: null, error: 'claim expired' }
    case 'AeoRunCancelled':
      return { ...state, status: 'cancelled', leaseExpiresAt: null, retryAt: null }
    default:
      return assertNever(event)
  }
}

function runNotFound(state: RunState): DomainError {
  return new DomainError('not_found', 'Not found', `run ${state.id || '?'} not found`)
}

/**
 * complete/fail/start by an agent: only on the agent's own claimed or running run. The codes are
 * aeo_run_not_claimed (nobody holds it: queued, done, failed, cancelled) and aeo_run_claimed_by_other.
 */
function assertHeldBy(state: RunState, agent: AgentRef, action: string): void {
  if (state.status !== 'claimed' && state.status !== 'running') {
    throw new DomainError(
      'aeo_run_not_claimed',
      'The run is not claimed',
      `run ${state.id} is ${state.status}; only a claimed or running run can be ${action}`,
    )
  }
  if (!sameAgent(state.agent, agent)) {
    throw new DomainError(
      'aeo_run_claimed_by_other',
      'Another agent holds the claim on this run',
      `run ${state.id} is claimed by another agent`,
    )
  }
}

function decideRun(command: RunCommand, state: RunState): AeoRunEvent[] {
  if (command.type === 'QueueRun') {
    if (state.exists) throw new DomainError('already_exists', 'Already exists', `run ${command.run_id}`)
    const { type: _type, ...data } = command
    return [{ type: 'AeoRunQueued', data }]
  }
  if (!state.exists) throw runNotFound(state)
  const run_id = state.id
  switch (command.type) {
    case 'ClaimRun':
      if (state.status !== 'queued') {
        throw new DomainError('aeo_run_not_claimable', 'The run is not queued', `run ${run_id} is ${state.status}`)
      }
      if (state.retryAt !== null && Date.parse(state.retryAt) > Date.parse(command.now)) {
        throw new DomainError(
          'aeo_run_not_claimable',
          'The run waits for its retry time',
          `run ${run_id} is not claimable before ${state.retryAt}`,
        )
      }
      return [
        {
          type: 'AeoRunClaimed',
          data: { run_id, ...agentOf(command.agent), attempt: state.attempts + 1, lease_expires_at: command.lease_expires_at },
        },
      ]
    case 'StartRun':
      // A repeated start by the holder changes nothing (an agent may retry after a lost answer).
      if (state.status === 'running' && sameAgent(state.agent, command.agent)) return []
      assertHeldBy(state, command.agent, 'started')
      return [{ type: 'AeoRunStarted', data: { run_id, ...agentOf(command.agent) } }]
    case 'CompleteRun':
      // The same completion again (a retried request) is accepted and changes nothing.
      if (state.status === 'done' && sameAgent(state.agent, command.agent) && state.captureId === command.capture_id) return []
      assertHeldBy(state, command.agent, 'completed')
      return [{ type: 'AeoRunCompleted', data: { run_id, ...agentOf(command.agent), capture_id: command.capture_id } }]
    case 'FailRun': {
      assertHeldBy(state, command.agent, 'failed')
      const retry = state.attempts < command.max_attempts
      const at = retry ? retryAt(command.now, state.attempts, command.backoff_seconds, command.retry_after_seconds) : null
      return [
        {
          type: 'AeoRunFailed',
          data: { run_id, ...agentOf(command.agent), error: command.error.slice(0, 2000), attempt: state.attempts, retry, retry_at: at },
        },
      ]
    }
    case 'ExpireClaim': {
      if (state.status !== 'claimed' && state.status !== 'running') return []
      if (state.leaseExpiresAt === null || Date.parse(state.leaseExpiresAt) > Date.parse(command.now)) return []
      const agent = state.agent ?? { agent_id: 'unknown', agent_org_id: null }
      // A run whose every claim ran out (an agent that crashes on it, say) is failed rather than retried forever.
      if (state.attempts >= command.max_attempts) {
        return [
          {
            type: 'AeoRunFailed',
            data: { run_id, ...agent, error: 'claim expired without a result', attempt: state.attempts, retry: false },
          },
        ]
      }
      return [{ type: 'AeoRunClaimExpired', data: { run_id, ...agent } }]
    }
    case 'CancelRun':
      // Only queued runs are cancelled; anything else (claimed, finished) is left alone.
      if (state.status !== 'queued') return []
      return [{ type: 'AeoRunCancelled', data: { run_id, reason: command.reason } }]
    default:
      return assertNever(command)
  }
}

export const run: Aggregate<RunState, RunCommand, AeoRunEvent> = {
  streamOf: runStream,
  initialState: initialRunState,
  evolve: evolveRun,
  decide: decideRun,
  orgOf: (state) => state.orgId,
  entity: 'run',
}
