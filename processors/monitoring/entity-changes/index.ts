import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The entity-changes sub-area's processors. */
export function entityChangesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
