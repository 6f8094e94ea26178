import type { SiteConnectionsReadModels } from './connections/tables.js'
import type { PushFailuresReadModels } from './push-failures/tables.js'
import type { RedirectsReadModels } from './redirects/tables.js'
import type { ContentPagesReadModels } from './content-pages/tables.js'
import type { WebsiteProjectsReadModels } from './projects/tables.js'
import type { TemplatesReadModels } from './templates/tables.js'

/** The publishing area's read models as kysely sees them. */
export type PublishingReadModels = SiteConnectionsReadModels &
  PushFailuresReadModels &
  RedirectsReadModels &
  ContentPagesReadModels &
  WebsiteProjectsReadModels &
  TemplatesReadModels
