import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The scans sub-area's processors. */
export function scansProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
