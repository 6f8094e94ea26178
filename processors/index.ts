import { aeoProcessors } from './aeo/index.js'
import { jobProcessors } from './jobs/index.js'
import type { Processor, ProcessorDeps } from './runtime.js'

/** Every processor the processors role runs. */
export function createProcessors(deps: ProcessorDeps): Processor[] {
  return [...aeoProcessors(deps), ...jobProcessors(deps)]
}
