import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The gsc processors. */
export function gscProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
