import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The renders sub-area's processors. */
export function rendersProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
