import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The images sub-area's processors. */
export function imagesProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
