import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The associations processors. */
export function associationsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
