import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The intent processors. */
export function intentProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
