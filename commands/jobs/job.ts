import { job, type JobCommand, type JobState } from '../../domain/jobs/job.js'
import type { JobEvent } from '../../domain/jobs/events.js'
import { handleCommand, loadState, type CommandContext, type CommandOutcome, type WriteDeps } from '../command-handler.js'

export type JobOutcome = CommandOutcome<JobState, JobEvent>

/** The job's state folded from its stream, and its organization (null when there is no such job). */
export async function loadJob(deps: WriteDeps, jobId: number): Promise<{ state: JobState; orgId: number | null }> {
  const state = await loadState(deps.store, job, jobId)
  return { state, orgId: state.orgId }
}

/**
 * One command on one job (a cancel racing the worker's completion: the second decides against the first's
 * result). A job of another organization than `visibleTo` (null: any) answers exactly like a missing one.
 */
export function handleJobCommand(
  deps: WriteDeps,
  context: CommandContext,
  jobId: number,
  command: JobCommand,
  visibleTo: number | null,
): Promise<JobOutcome> {
  return handleCommand(deps, { aggregate: job, id: jobId, command, context, visibleTo })
}

/** POST /api/v1/jobs/<id>/cancel: a queued job is cancelled at once, a running one is asked to stop. */
export function cancelJob(deps: WriteDeps, context: CommandContext, jobId: number, visibleTo: number | null): Promise<JobOutcome> {
  return handleJobCommand(deps, context, jobId, { type: 'CancelJob' }, visibleTo)
}
