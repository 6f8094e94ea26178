import type { AnyRpc } from '../../registry.js'
import { siteConnectionsRpcs } from './connections.js'
import { pushFailuresRpcs } from './push-failures.js'
import { redirectsRpcs } from './redirects.js'
import { contentPagesRpcs } from './content-pages.js'
import { websiteProjectsRpcs } from './projects.js'
import { templatesRpcs } from './templates.js'

/** The publishing area's methods. */
export const publishingRpcs: readonly AnyRpc[] = [
  ...siteConnectionsRpcs,
  ...pushFailuresRpcs,
  ...redirectsRpcs,
  ...contentPagesRpcs,
  ...websiteProjectsRpcs,
  ...templatesRpcs,
]
