import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { ContentPageStatus } from './statuses.js'

/**
 * Content pages (issue 27): pages the service created on a client's WordPress. They live in the client's
 * stream `content_pages-<client_id>`, because "one content page per WordPress post per client" is decided
 * against every page of the client at once.
 */
export const CONTENT_PAGE_SLUG_MAX_LENGTH = 200
export const CONTENT_PAGE_TITLE_MAX_LENGTH = 500

const Fields = {
  slug: z.string().max(CONTENT_PAGE_SLUG_MAX_LENGTH),
  title: z.string().max(CONTENT_PAGE_TITLE_MAX_LENGTH),
  status: ContentPageStatus,
  /** The verification as JSON text (verification.ts); '' when there is none. */
  verify_json: z.string(),
}

/** create_content_page. */
export const ContentPageCreated = z.object({
  client_id: Id,
  page_id: Id,
  wp_post_id: Id,
  job_id: Id.nullable(),
  ...Fields,
})

/** update_content_page: the page's values after the change (absolute, so a projector sets them as they are). */
export const ContentPageUpdated = z.object({ client_id: Id, page_id: Id, ...Fields })

export const contentPagesEventSchemas = { ContentPageCreated, ContentPageUpdated } as const

type Schemas = typeof contentPagesEventSchemas
export type ContentPagesEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
