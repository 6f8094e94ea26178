import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The metrics processors. */
export function keywordMetricsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
