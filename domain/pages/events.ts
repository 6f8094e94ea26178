import { z } from 'zod'
import { PageState } from '../monitoring/page-state.js'
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
 * is never loaded to decide about URLs. `source` says who recorded it: add_snapshot, the built-in site
 * publisher applying (`site_edit`) or rolling back (`site_edit_rollback`) a site edit (`edit_id`), or the
 * site monitor's crawl (`crawl`) or Chromium render (`render`), which also carry the page's `state`.
 */
export const SnapshotSourceV1 = z.enum(['add_snapshot', 'site_edit', 'site_edit_rollback'])
export const SnapshotSource = z.enum(['add_snapshot', 'site_edit', 'site_edit_rollback', 'crawl', 'render'])

/** As released before site monitoring (schema_version 1): kept so the upcaster can read what v1 wrote. */
export const PageSnapshotRecordedV1 = z.object({
  snapshot_id: Id,
  page_id: Id,
  client_id: Id,
  title: PageTitle,
  content: PageContent,
  source: SnapshotSourceV1,
  edit_id: Id.nullable(),
})

/**
 * v2 (issue 25): the crawl and render sources, and what the monitor saw: `state` (null for add_snapshot and
 * site edits, which record content, not a fetch) and the validators a conditional request sends next time
 * (`etag`, `last_modified`: the response's ETag and Last-Modified headers, null when absent), and the scan that
 * saw it (`scan_id`, null when no scan did). `content` of a crawled snapshot is the page's main text, so
 * get_latest_snapshot and prompted_edit read crawled pages too.
 */
export const PageSnapshotRecorded = PageSnapshotRecordedV1.extend({
  source: SnapshotSource,
  scan_id: Id.nullable(),
  state: PageState.nullable(),
  etag: z.string().max(500).nullable(),
  last_modified: z.string().max(200).nullable(),
})

export const pageSnapshotEventSchemas = { PageSnapshotRecorded } as const
export type PageSnapshotEvent = { type: 'PageSnapshotRecorded'; data: z.infer<typeof PageSnapshotRecorded> }
