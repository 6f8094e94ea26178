import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The compare reports sub-area's processors. */
export function compareReportsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
