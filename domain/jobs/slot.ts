import type { Aggregate } from '../shared/aggregate.js'
import { DomainError } from '../shared/errors.js'
import { sandboxMayCreateJob } from '../sandbox/policy.js'
import type { JobSlotEvent } from './events.js'

/**
 * One active job per client (per group, for kinds about a group: bulk_strategist; per organization, for kinds
 * about the organization: export_org). The slot
 * is a stream of its own, `job_slot-<key>`; a request takes it with a compare-and-set append, so exactly one
 * of any number of concurrent requests, on any number of processes, wins.
 *
 * The slot records who took it last; it is free again once that job is finished. The job's own stream says
 * whether it is (the caller reads it and passes `holder`), so there is no release event that could lag
 * behind or be lost: a client can start its next job the moment the last one ends.
 */
export function slotKey(target: { clientId: number | null; groupId?: number | null; orgId: number }): string {
  if (target.groupId !== undefined && target.groupId !== null) return `group_${target.groupId}`
  return target.clientId !== null ? `client_${target.clientId}` : `org_${target.orgId}`
}
export const slotStream = (key: string) => `job_slot-${key}`

/** A slot whose job was never recorded (the requester crashed in between) is free again after this. */
export const ORPHANED_SLOT_MS = 60_000

export interface SlotState {
  readonly holder: number | null
  readonly takenAt: string | null
  /** The last export taken by the public sandbox key (one per 10 minutes). */
  readonly lastSandboxExportAt: string | null
}

/** What the caller found in the holder's stream. */
export type HolderStatus = 'active' | 'finished' | 'missing'

export type SlotCommand = {
  type: 'TakeSlot'
  slot: string
  job_id: number
  kind: string
  sandbox: boolean
  now: string
  holder: HolderStatus
}

/** The sandbox key asked for its next export too soon: 429 with Retry-After. */
export class SandboxExportLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 'The sandbox key may start one export every 10 minutes', `retry in ${retryAfterSeconds} s`)
    this.name = 'SandboxExportLimitedError'
  }
}

/** The slot is held: 409 job_already_running, naming the job to poll. */
export class JobAlreadyRunningError extends DomainError {
  constructor(readonly activeJobId: number) {
    super(
      'job_already_running',
      'A job for the same client, group or organization is still active',
      `job ${activeJobId} is still active; poll /api/v1/jobs/${activeJobId}`,
    )
    this.name = 'JobAlreadyRunningError'
  }
}

export const initialSlotState = (): SlotState => ({ holder: null, takenAt: null, lastSandboxExportAt: null })

function evolveSlot(state: SlotState, event: JobSlotEvent): SlotState {
  const d = event.data
  return {
    holder: d.job_id,
    takenAt: d.taken_at,
    lastSandboxExportAt: d.sandbox && d.kind === 'export_org' ? d.taken_at : state.lastSandboxExportAt,
  }
}

function decideSlot(command: SlotCommand, state: SlotState): JobSlotEvent[] {
  if (state.holder !== null && holderHolds(command, state)) throw new JobAlreadyRunningError(state.holder)
  if (command.sandbox) {
    const lastExport = state.lastSandboxExportAt === null ? null : new Date(state.lastSandboxExportAt)
    const verdict = sandboxMayCreateJob(command.kind, lastExport, new Date(command.now))
    if (!verdict.allowed) {
      if (verdict.reason === 'rate_limited') throw new SandboxExportLimitedError(verdict.retryAfterSeconds ?? 600)
      throw new DomainError(
        'sandbox_read_only',
        'The public sandbox is read-only',
        `the sandbox key may start export_org jobs only, not ${command.kind}`,
      )
    }
  }
  return [
    {
      type: 'JobSlotTaken',
      data: { slot: command.slot, job_id: command.job_id, kind: command.kind, sandbox: command.sandbox, taken_at: command.now },
    },
  ]
}

function holderHolds(command: SlotCommand, state: SlotState): boolean {
  if (command.holder === 'active') return true
  if (command.holder === 'finished') return false
  // Taken but never recorded: being recorded right now, or orphaned by a crash a while ago.
  return state.takenAt !== null && Date.parse(command.now) - Date.parse(state.takenAt) < ORPHANED_SLOT_MS
}

export const slot: Aggregate<SlotState, SlotCommand, JobSlotEvent, string> = {
  streamOf: slotStream,
  initialState: initialSlotState,
  evolve: evolveSlot,
  decide: decideSlot,
}
