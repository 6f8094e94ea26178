import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The cooldowns sub-area's processors. */
export function cooldownsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
