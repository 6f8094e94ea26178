import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The reference-docs sub-area's processors. */
export function referenceDocsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
