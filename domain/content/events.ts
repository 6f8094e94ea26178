import { referenceDocsEventSchemas } from './reference-docs/events.js'
import { blogEventSchemas } from './blog/events.js'
import { imagesEventSchemas } from './images/events.js'

/** Every event schema of the content area (reference documents, the blog, images). */
export const contentEventSchemas = {
  ...referenceDocsEventSchemas,
  ...blogEventSchemas,
  ...imagesEventSchemas,
} as const
