import type { ReferenceDocsReadModels } from './reference-docs/tables.js'
import type { BlogReadModels } from './blog/tables.js'
import type { ImagesReadModels } from './images/tables.js'

/** The content area's read models as kysely sees them. */
export type ContentReadModels = ReferenceDocsReadModels & BlogReadModels & ImagesReadModels
