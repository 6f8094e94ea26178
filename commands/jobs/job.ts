import { decideJob, evolveJob, initialJobState, jobStream, type JobCommand, type JobState } from '../../domain/jobs/job.js'
import type { JobEvent } from '../../domain/jobs/events.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { appendDecided, loadStream } from '../aeo/append.js'
import type { CommandContext, WriteDeps } from '../command-handler.js'
import { WrongExpectedRevisionError, type Position } from '../event-store/port.js'

const MAX_ATTEMPTS = 8

export interface JobOutcome {
  readonly state: JobState
  readonly events: readonly JobEvent[]
  readonly orgId: number
  readonly position: Position | null
}

/** The job's state folded from its stream, and its organization (null when there is no such job). */
export async function loadJob(deps: WriteDeps, jobId: number): Promise<{ state: JobState; orgId: number | null; revision: bigint | undefined }> {
  const loaded = await loadStream(deps, jobStream(jobId))
  let state = initialJobState()
  for (const event of loaded.events) state = evolveJob(state, { type: event.type, data: event.data } as JobEvent)
  return { state, orgId: loaded.orgId, revision: loaded.revision }
}

/**
 * Load → decide → append for one job, retrying when another writer appended in between (a cancel racing
 * the worker's completion: the second decides against the first's result). A job of another organization
 * than `visibleTo` (null: any) answers exactly like a missing one.
 */
export async function handleJobCommand(deps: WriteDeps, context: CommandContext, jobId: number, command: JobCommand, visibleTo: number | null): Promise<JobOutcome> {
  for (let attempt = 1; ; attempt++) {
    const { state, orgId, revision } = await loadJob(deps, jobId)
    if (!state.exists || orgId === null || (visibleTo !== null && orgId !== visibleTo)) throw new NotFoundError('job', jobId)
    const events = decideJob(command, state)
    if (events.length === 0) return { state, events, orgId, position: null }
    let after = state
    for (const event of events) after = evolveJob(after, event)
    try {
      const result = await appendDecided(deps, context, jobStream(jobId), events, revision ?? 'no_stream', orgId)
      return { state: after, events, orgId, position: result.position }
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error
    }
  }
}

/** POST /api/v1/jobs/<id>/cancel: a queued job is cancelled at once, a running one is asked to stop. */
export function cancelJob(deps: WriteDeps, context: CommandContext, jobId: number, visibleTo: number | null): Promise<JobOutcome> {
  return handleJobCommand(deps, context, jobId, { type: 'CancelJob' }, visibleTo)
}
