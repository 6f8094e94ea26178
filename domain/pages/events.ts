import { z } from 'zod'
import { Id } from '../shared/values.js'

/** A page's address: an absolute http(s) URL or a site path, as the client's site names it. */
export const PageUrl = z.string().trim().min(1, 'must not be empty').max(2000)
export const PageSlug = z.string().trim().max(300)
export const PageTitle = z.string().trim().max(500)
/** The page's body as published (HTML or Elementor text). Bounded so one event stays small. */
export const PageContent = z.string().max(500_000)

/**
 * A client's page set: stream `pages-<client_id>`, so "one page per URL per client" and "deactivate every
 * page not in this list" are each one decision against the whole set.
 */
export const PageAdded = z.object({
  page_id: Id,
  client_id: Id,
  url: PageUrl,
  slug: PageSlug,
  wp_post_id: Id.nullable(),
  title: PageTitle,
  active: z.boolean(),
})

/** add_page for a URL the client already has: only the fields that changed are present. */
export const PageUpdated = z.object({
  page_id: Id,
  client_id: Id,
  slug: PageSlug.optional(),
  wp_post_id: Id.nullable().optional(),
  title: PageTitle.optional(),
  active: z.boolean().optional(),
})

/** deactivate_pages_not_in_list: every active page of the client whose URL was not listed, at once. */
export const PagesDeactivated = z.object({ client_id: Id, page_ids: z.array(Id).min(1) })

export const pageEventSchemas = { PageAdded, PageUpdated, PagesDeactivated } as const
type PageSchemas = typeof pageEventSchemas
export type PageEvent = { [K in keyof PageSchemas]: { type: K; data: z.infer<PageSchemas[K]> } }[keyof PageSchemas]

/**
 * A page's content at a time: stream `page-<page_id>`, apart from the page set so that content (large)
 * is never loaded to decide about URLs. `source` says who recorded it: add_snapshot, or the built-in site
 * publisher applying (`site_edit`) or rolling back (`site_edit_rollback`) a site edit (`edit_id`).
 */
export const SnapshotSource = z.enum(['add_snapshot', 'site_edit', 'site_edit_rollback'])

export const PageSnapshotRecorded = z.object({
  snapshot_id: Id,
  page_id: Id,
  client_id: Id,
  title: PageTitle,
  content: PageContent,
  source: SnapshotSource,
  edit_id: Id.nullable(),
})

export const pageSnapshotEventSchemas = { PageSnapshotRecorded } as const
export type PageSnapshotEvent = { type: 'PageSnapshotRecorded'; data: z.infer<typeof PageSnapshotRecorded> }
