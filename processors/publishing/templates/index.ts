import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The section templates, the template catalog and template pages sub-area's processors. */
export function templatesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
