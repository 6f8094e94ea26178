import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The rank-checks processors. */
export function rankChecksProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
