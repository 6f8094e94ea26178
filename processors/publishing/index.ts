import type { Processor, ProcessorDeps } from '../runtime.js'
import { siteConnectionsProcessors } from './connections/index.js'
import { pushFailuresProcessors } from './push-failures/index.js'
import { redirectsProcessors } from './redirects/index.js'
import { contentPagesProcessors } from './content-pages/index.js'
import { websiteProjectsProcessors } from './projects/index.js'
import { templatesProcessors } from './templates/index.js'

/** The publishing area's processors. */
export function publishingProcessors(deps: ProcessorDeps): Processor[] {
  return [
    ...siteConnectionsProcessors(deps),
    ...pushFailuresProcessors(deps),
    ...redirectsProcessors(deps),
    ...contentPagesProcessors(deps),
    ...websiteProjectsProcessors(deps),
    ...templatesProcessors(deps),
  ]
}
