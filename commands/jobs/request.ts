import { isTerminal, job } from '../../domain/jobs/job.js'
import { slot, slotKey, type HolderStatus } from '../../domain/jobs/slot.js'
import { appendDecided } from '../append.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
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

async function holderStatus(deps: WriteDeps, holder: number | null): Promise<HolderStatus> {
  if (holder === null) return 'finished'
  const { state } = await loadJob(deps, holder)
  if (!state.exists) return 'missing'
  return isTerminal(state.status) ? 'finished' : 'active'
}

/**
 * Accepts a job: takes the client's (or group's, or organization's) slot with a compare-and-set append, then records
 * JobRequested. A request that loses the race re-reads the slot, finds the winner active and gets
 * job_already_running (JobAlreadyRunningError). The job id is allocated first so that the slot names it; an
 * id of a request refused here is simply never used (sequences have gaps anyway).
 */
export async function requestJob(
  deps: WriteDeps,
  context: CommandContext,
  request: JobRequest,
): Promise<{ jobId: number; position: Position }> {
  const jobId = await deps.ids.next('job')
  const key = slotKey({ clientId: request.clientId, groupId: request.groupId, orgId: request.orgId })
  await handleCommand(deps, {
    aggregate: slot,
    id: key,
    // Whether the holder still runs is in its own stream: asked again on every attempt.
    command: async (state) => ({
      type: 'TakeSlot' as const,
      slot: key,
      job_id: jobId,
      kind: request.kind,
      sandbox: request.sandbox,
      now: deps.clock().toISOString(),
      holder: await holderStatus(deps, state.holder),
    }),
    context,
    orgId: request.orgId,
  })
  // A new stream (its id was just allocated): nothing to read or retry, the append only has to be first.
  const requested = job.decide(
    {
      type: 'RequestJob',
      job_id: jobId,
      kind: request.kind,
      client_id: request.clientId,
      group_id: request.groupId,
      payload: request.payload,
      meter: request.meter,
    },
    job.initialState(),
  )
  const result = await appendDecided(deps, context, job.streamOf(jobId), requested, 'no_stream', request.orgId)
  return { jobId, position: result.position }
}
