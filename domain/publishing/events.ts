import { siteConnectionsEventSchemas } from './connections/events.js'
import { pushFailuresEventSchemas } from './push-failures/events.js'
import { redirectsEventSchemas } from './redirects/events.js'
import { contentPagesEventSchemas } from './content-pages/events.js'
import { websiteProjectsEventSchemas } from './projects/events.js'
import { templatesEventSchemas } from './templates/events.js'

/** Every event schema of the publishing area (site connections, push failures, redirects, content and Elementor pages, website projects, templates). */
export const publishingEventSchemas = {
  ...siteConnectionsEventSchemas,
  ...pushFailuresEventSchemas,
  ...redirectsEventSchemas,
  ...contentPagesEventSchemas,
  ...websiteProjectsEventSchemas,
  ...templatesEventSchemas,
} as const
