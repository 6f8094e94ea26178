import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The website projects, sitemap pages and generated content sub-area's processors. */
export function websiteProjectsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
