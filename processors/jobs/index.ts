import type { Processor, ProcessorDeps } from '../runtime.js'
import { JOB_HANDLERS } from './kinds/index.js'
import { jobQueueProcessor } from './queue.js'
import type { JobHandlers } from './handler.js'
import { JobRunner } from './runner.js'
import { jobWatchdogProcessor } from './watchdog.js'

/** The handlers this process runs: the kinds' own (processors/jobs/kinds), or the map ops was given (tests). */
export function jobHandlersOf(deps: Pick<ProcessorDeps, 'jobHandlers'>): JobHandlers {
  return deps.jobHandlers ?? JOB_HANDLERS
}

/** The job engine: the queue process manager, the runner (workers) and the watchdog. */
export function jobProcessors(deps: ProcessorDeps): Processor[] {
  return [jobQueueProcessor(deps), new JobRunner(deps, jobHandlersOf(deps)), jobWatchdogProcessor(deps)]
}
