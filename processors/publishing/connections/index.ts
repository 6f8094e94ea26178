import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The site connections sub-area's processors. */
export function siteConnectionsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
