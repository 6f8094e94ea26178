import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The insights processors. */
export function insightsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
