import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The redirects sub-area's processors. */
export function redirectsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
