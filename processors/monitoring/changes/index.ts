import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The changes sub-area's processors. */
export function siteChangesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
