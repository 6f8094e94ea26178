import type { Projector } from '../projector.js'
import { siteConnectionsProjectors } from './connections/projector.js'
import { pushFailuresProjectors } from './push-failures/projector.js'
import { redirectsProjectors } from './redirects/projector.js'
import { contentPagesProjectors } from './content-pages/projector.js'
import { websiteProjectsProjectors } from './projects/projector.js'
import { templatesProjectors } from './templates/projector.js'

/** The publishing area's projectors; each writes only its own tables. */
export const publishingProjectors: readonly Projector[] = [
  ...siteConnectionsProjectors,
  ...pushFailuresProjectors,
  ...redirectsProjectors,
  ...contentPagesProjectors,
  ...websiteProjectsProjectors,
  ...templatesProjectors,
]
