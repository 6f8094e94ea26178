import type { Aggregate, Evolving } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { RankDevice } from '../ranks/rank-row.js'
import { cadenceIsDue } from './cadence.js'
import type { RankCheckError, RankCheckEvent, RankFrequency, RankProviderName } from './events.js'

/**
 * A client's rank checks: every check of the client in one stream, `rank_checks-<client_id>`, because the two
 * rules that matter are about the client's checks together: at most one check is open (queued or running)
 * at a time, and an open check is held by at most one worker at a time (its lease). A worker that lost its
 * lease (it stalled past it and another took the check) finds its next report refused.
 */
export const clientChecksStream = (clientId: number) => `rank_checks-${clientId}`

/** Takes of one check before it is failed as rank_check_interrupted: a check that kills its workers is not run for ever. */
export const MAX_CHECK_ATTEMPTS = 5

export interface CheckPlan {
  readonly keyword_ids: readonly number[]
  /** Empty: one national search per keyword and device. */
  readonly location_ids: readonly number[]
  readonly devices: readonly RankDevice[]
  readonly tasks_total: number
}

export interface OpenCheck {
  readonly checkId: number
  readonly date: string
  readonly trigger: 'manual' | 'cadence'
  readonly devices: readonly RankDevice[]
  readonly status: 'queued' | 'running'
  readonly plan: CheckPlan | null
  /** Takes so far (0 while queued). */
  readonly attempt: number
  readonly worker: string | null
  readonly provider: RankProviderName | null
  readonly leaseExpiresAt: string | null
  readonly tasksDone: number
  readonly tasksFailed: number
  readonly providerCalls: number
  readonly retries: number
}

export interface ClientChecksState {
  readonly clientId: number
  /** The client's organization, from the first check's metadata. */
  readonly orgId: number | null
  readonly open: OpenCheck | null
  /** The date of the latest check queued, open or finished (what a cadence is due against). */
  readonly lastDate: string | null
}

/** What a worker reports: the totals of tasks, and the calls made since its last report. */
export interface CheckCounts {
  readonly tasks_done: number
  readonly tasks_failed: number
  readonly calls: number
  readonly retries: number
}

export type ClientChecksCommand =
  /**
   * Queue a check for `date`. With a check open already, nothing happens (the caller is shown the open one).
   * `due` (the cadence's queueing): only when that frequency is due against the last check's date.
   */
  | {
      type: 'QueueRankCheck'
      client_id: number
      check_id: number
      date: string
      trigger: 'manual' | 'cadence'
      devices: readonly RankDevice[]
      due?: RankFrequency
    }
  /**
   * A worker takes the open check: queued, or running under a lease that ran out by `now`. The first take
   * fixes `plan`; later ones keep the plan they find.
   */
  | {
      type: 'StartRankCheck'
      check_id: number
      now: string
      lease_until: string
      worker: string
      provider: RankProviderName
      tasks_recorded: number
      plan: CheckPlan
    }
  | ({ type: 'ReportRankCheckProgress'; check_id: number; attempt: number; lease_until: string } & CheckCounts)
  | {
      type: 'FailRankCheckTask'
      check_id: number
      attempt: number
      keyword_id: number
      location_id: number | null
      device: RankDevice
      error: RankCheckError
      tries: number
    }
  | ({ type: 'CompleteRankCheck'; check_id: number; attempt: number } & CheckCounts)
  /**
   * End the check as failed: by the worker holding it (`attempt`), or, with `attempt` null, by one that
   * finds it cannot be run at all (no provider, client deleted) while it is queued or its lease ran out.
   */
  | ({ type: 'FailRankCheck'; check_id: number; attempt: number | null; now: string; error: RankCheckError } & CheckCounts)

const initialState = (): ClientChecksState => ({ clientId: 0, orgId: null, open: null, lastDate: null })

function patchOpen(state: ClientChecksState, change: (open: OpenCheck) => OpenCheck): ClientChecksState {
  return state.open ? { ...state, open: change(state.open) } : state
}

function evolve(state: ClientChecksState, event: Evolving<RankCheckEvent>): ClientChecksState {
  switch (event.type) {
    case 'RankCheckQueued': {
      const d = event.data
      const open: OpenCheck = {
        checkId: d.check_id,
        date: d.date,
        trigger: d.trigger,
        devices: d.devices,
        status: 'queued',
        plan: null,
        attempt: 0,
        worker: null,
        provider: null,
        leaseExpiresAt: null,
        tasksDone: 0,
        tasksFailed: 0,
        providerCalls: 0,
        retries: 0,
      }
      return { clientId: d.client_id, orgId: event.metadata?.org_id ?? state.orgId, open, lastDate: d.date }
    }
    case 'RankCheckPlanned': {
      const { keyword_ids, location_ids, devices, tasks_total } = event.data
      return patchOpen(state, (o) => ({ ...o, plan: { keyword_ids, location_ids, devices, tasks_total } }))
    }
    case 'RankCheckStarted': {
      const d = event.data
      return patchOpen(state, (o) => ({
        ...o,
        status: 'running',
        attempt: d.attempt,
        worker: d.worker,
        provider: d.provider,
        leaseExpiresAt: d.lease_expires_at,
        tasksDone: d.tasks_recorded,
        tasksFailed: 0,
      }))
    }
    case 'RankCheckProgressed': {
      const d = event.data
      return patchOpen(state, (o) => ({
        ...o,
        leaseExpiresAt: d.lease_expires_at,
        tasksDone: d.tasks_done,
        tasksFailed: d.tasks_failed,
        providerCalls: d.provider_calls,
        retries: d.retries,
      }))
    }
    case 'RankCheckTaskFailed':
      return state
    case 'RankCheckCompleted':
    case 'RankCheckFailed':
      return { ...state, open: null }
    default:
      return assertNever(event)
  }
}

function openCheck(state: ClientChecksState, checkId: number): OpenCheck {
  const open = state.open
  if (!open || open.checkId !== checkId) {
    throw new DomainError('rank_check_not_open', 'The rank check is not open', `rank check ${checkId} is finished or unknown`)
  }
  return open
}

/** The open check, held by the worker of `attempt`; a worker whose lease was taken over learns it here. */
function heldCheck(state: ClientChecksState, checkId: number, attempt: number): OpenCheck {
  const open = openCheck(state, checkId)
  if (open.status !== 'running' || open.attempt !== attempt) {
    throw new DomainError(
      'rank_check_not_held',
      'Another worker holds the rank check',
      `rank check ${checkId} is at attempt ${open.attempt}, not ${attempt}`,
    )
  }
  return open
}

/** Whether a worker may take the open check at `now`: it is queued, or its holder's lease ran out. */
export function isClaimable(open: OpenCheck, now: string): boolean {
  return open.status === 'queued' || (open.leaseExpiresAt !== null && Date.parse(open.leaseExpiresAt) <= Date.parse(now))
}

const countsOf = (open: OpenCheck, c: CheckCounts) => ({
  tasks_done: c.tasks_done,
  tasks_failed: c.tasks_failed,
  provider_calls: open.providerCalls + c.calls,
  retries: open.retries + c.retries,
})

function decide(command: ClientChecksCommand, state: ClientChecksState): RankCheckEvent[] {
  switch (command.type) {
    case 'QueueRankCheck': {
      if (state.open) return [] // one open check per client: the caller gets the open one
      if (command.due !== undefined && !cadenceIsDue(command.due, state.lastDate, command.date)) return []
      const { client_id, check_id, date, trigger, devices } = command
      return [{ type: 'RankCheckQueued', data: { check_id, client_id, date, trigger, devices: [...devices] } }]
    }
    case 'StartRankCheck': {
      const open = openCheck(state, command.check_id)
      if (!isClaimable(open, command.now)) {
        throw new DomainError('rank_check_held', 'A worker holds the rank check', `rank check ${command.check_id} is leased`)
      }
      const base = { check_id: open.checkId, client_id: state.clientId }
      if (open.attempt >= MAX_CHECK_ATTEMPTS) {
        const message = `the check was taken ${open.attempt} times and each worker stopped before finishing it`
        const counts = {
          tasks_done: open.tasksDone,
          tasks_failed: open.tasksFailed,
          provider_calls: open.providerCalls,
          retries: open.retries,
        }
        return [
          {
            type: 'RankCheckFailed',
            data: { ...base, attempt: open.attempt, error: { code: 'rank_check_interrupted', message }, ...counts },
          },
        ]
      }
      const events: RankCheckEvent[] = []
      if (!open.plan) {
        const p = command.plan
        events.push({
          type: 'RankCheckPlanned',
          data: {
            ...base,
            keyword_ids: [...p.keyword_ids],
            location_ids: [...p.location_ids],
            devices: [...p.devices],
            tasks_total: p.tasks_total,
          },
        })
      }
      events.push({
        type: 'RankCheckStarted',
        data: {
          ...base,
          attempt: open.attempt + 1,
          provider: command.provider,
          worker: command.worker,
          lease_expires_at: command.lease_until,
          tasks_recorded: command.tasks_recorded,
        },
      })
      return events
    }
    case 'ReportRankCheckProgress': {
      const open = heldCheck(state, command.check_id, command.attempt)
      return [
        {
          type: 'RankCheckProgressed',
          data: {
            check_id: open.checkId,
            client_id: state.clientId,
            attempt: open.attempt,
            lease_expires_at: command.lease_until,
            ...countsOf(open, command),
          },
        },
      ]
    }
    case 'FailRankCheckTask': {
      const open = heldCheck(state, command.check_id, command.attempt)
      const { keyword_id, location_id, device, error, tries } = command
      return [
        {
          type: 'RankCheckTaskFailed',
          data: { check_id: open.checkId, client_id: state.clientId, attempt: open.attempt, keyword_id, location_id, device, error, tries },
        },
      ]
    }
    case 'CompleteRankCheck': {
      const open = heldCheck(state, command.check_id, command.attempt)
      return [
        {
          type: 'RankCheckCompleted',
          data: { check_id: open.checkId, client_id: state.clientId, attempt: open.attempt, ...countsOf(open, command) },
        },
      ]
    }
    case 'FailRankCheck': {
      let open: OpenCheck
      if (command.attempt === null) {
        open = openCheck(state, command.check_id)
        if (!isClaimable(open, command.now)) {
          throw new DomainError('rank_check_held', 'A worker holds the rank check', `rank check ${command.check_id} is leased`)
        }
      } else open = heldCheck(state, command.check_id, command.attempt)
      return [
        {
          type: 'RankCheckFailed',
          data: {
            check_id: open.checkId,
            client_id: state.clientId,
            attempt: open.attempt,
            error: command.error,
            ...countsOf(open, command),
          },
        },
      ]
    }
    default:
      return assertNever(command)
  }
}

export const clientChecks: Aggregate<ClientChecksState, ClientChecksCommand, RankCheckEvent> = {
  streamOf: clientChecksStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => state.orgId,
  entity: 'client',
}
