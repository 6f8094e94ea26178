import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The architecture sub-area's processors. */
export function architectureProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
