import { initialJobState, decideJob, isTerminal, jobStream } from '../../domain/jobs/job.js'
import type { JobSlotEvent } from '../../domain/jobs/events.js'
import { decideSlot, evolveSlot, initialSlotState, slotKey, slotStream, type HolderStatus } from '../../domain/jobs/slot.js'
import { appendDecided, loadStream } from '../aeo/append.js'
import type { CommandContext, WriteDeps } from '../command-handler.js'
import { WrongExpectedRevisionError, type Position } from '../event-store/port.js'
import { loadJob } from './job.js'

export interface JobRequest {
  readonly orgId: number
  readonly kind: string
  readonly clientId: number | null
  readonly groupId: number | null
  readonly payload: Record<string, unknown>
  readonly meter: boolean
  /** The public sandbox key asks (its exports are limited to one per 10 minutes). */
  readonly sandbox: boolean
}

const MAX_ATTEMPTS = 8

async function holderStatus(deps: WriteDeps, holder: number | null): Promise<HolderStatus> {
  if (holder === null) return 'finished'
  const { state } = await loadJob(deps, holder)
  if (!state.exists) return 'missing'
  return isTerminal(state.status) ? 'finished' : 'active'
}

/**
 * Accepts a job: takes the client's (or organization's) slot with a compare-and-set append, then records
 * JobRequested. A request that loses the race re-reads the slot, finds the winner active and gets
 * job_already_running (JobAlreadyRunningError). The job id is allocated first so that the slot names it; an
 * id of a request refused here is simply never used (sequences have gaps anyway).
 */
export async function requestJob(deps: WriteDeps, context: CommandContext, request: JobRequest): Promise<{ jobId: number; position: Position }> {
  const jobId = await deps.ids.next('job')
  const key = slotKey({ clientId: request.clientId, orgId: request.orgId })
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadStream(deps, slotStream(key))
    let state = initialSlotState()
    for (const event of loaded.events) state = evolveSlot(state, { type: event.type, data: event.data } as JobSlotEvent)
    const events = decideSlot(
      { type: 'TakeSlot', slot: key, job_id: jobId, kind: request.kind, sandbox: request.sandbox, now: deps.clock().toISOString(), holder: await holderStatus(deps, state.holder) },
      state,
    )
    try {
      await appendDecided(deps, context, slotStream(key), events, loaded.revision ?? 'no_stream', request.orgId)
      break
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error
    }
  }
  const requested = decideJob(
    { type: 'RequestJob', job_id: jobId, kind: request.kind, client_id: request.clientId, group_id: request.groupId, payload: request.payload, meter: request.meter },
    initialJobState(),
  )
  const result = await appendDecided(deps, context, jobStream(jobId), requested, 'no_stream', request.orgId)
  return { jobId, position: result.position }
}
