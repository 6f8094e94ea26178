import type { Processor, ProcessorDeps } from '../runtime.js'

/** Placeholder until the server-API agent lands. */
export function serverAgentProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
