import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The hour budgets and cycles sub-area's processors. */
export function cyclesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
