import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The push failures sub-area's processors. */
export function pushFailuresProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
