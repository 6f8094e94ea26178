import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The content pages and Elementor pages sub-area's processors. */
export function contentPagesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
