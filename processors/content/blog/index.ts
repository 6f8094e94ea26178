import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The blog sub-area's processors. */
export function blogProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
