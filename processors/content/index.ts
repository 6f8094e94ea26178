import type { Processor, ProcessorDeps } from '../runtime.js'
import { referenceDocsProcessors } from './reference-docs/index.js'
import { blogProcessors } from './blog/index.js'
import { imagesProcessors } from './images/index.js'

/** The content area's processors. */
export function contentProcessors(deps: ProcessorDeps): Processor[] {
  return [...referenceDocsProcessors(deps), ...blogProcessors(deps), ...imagesProcessors(deps)]
}
