import type { Processor, ProcessorDeps } from '../runtime.js'

/** Placeholder until the raw-record pruner lands. */
export function recordPrunerProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
