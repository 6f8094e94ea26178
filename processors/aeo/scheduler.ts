import type { Processor, ProcessorDeps } from '../runtime.js'

/** Placeholder until the scheduler (daily sweep, stale claims) lands. */
export function schedulerProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
