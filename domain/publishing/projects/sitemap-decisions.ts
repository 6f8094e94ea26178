import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { SitemapPageEvent } from './events.js'
import { pageMovesFrom, canMovePage } from './sitemap-status-flow.js'
import {
  assertParentFits,
  assertSlugFree,
  descendantsDeepestFirst,
  findPage,
  livePage,
  nextPosition,
  type SitemapPageFields,
  type SitemapPageRecord,
} from './sitemap-tree.js'
import { MAX_SITEMAP_PAGES, type SitemapPageStatus } from './values.js'

/** The page commands the project aggregate decides (website-project.ts), each against the whole sitemap. */
export type SitemapPageCommand =
  | {
      type: 'AddSitemapPage'
      project_id: number
      page_id: number
      status: SitemapPageStatus
      /** position null: after the last sibling. */
      fields: Omit<SitemapPageFields, 'position'> & { position: number | null }
    }
  | { type: 'UpdateSitemapPage'; project_id: number; page_id: number; changes: Partial<SitemapPageFields> }
  | { type: 'SetSitemapPageStatus'; project_id: number; page_id: number; status: SitemapPageStatus; wp_post_id: number | null }
  | { type: 'DeleteSitemapPage'; project_id: number; page_id: number; with_children: boolean }

interface Sitemap {
  readonly projectId: number
  readonly clientId: number
  readonly pages: readonly SitemapPageRecord[]
}

const fieldsOf = (f: SitemapPageFields): SitemapPageFields => ({
  title: f.title,
  slug: f.slug,
  parent_id: f.parent_id,
  page_type: f.page_type,
  position: f.position,
  primary_keyword: f.primary_keyword,
})

const sameFields = (a: SitemapPageFields, b: SitemapPageFields) =>
  a.title === b.title &&
  a.slug === b.slug &&
  a.parent_id === b.parent_id &&
  a.page_type === b.page_type &&
  a.position === b.position &&
  a.primary_keyword === b.primary_keyword

export function decideSitemapPage(command: SitemapPageCommand, sitemap: Sitemap): SitemapPageEvent[] {
  const ids = { project_id: sitemap.projectId, client_id: sitemap.clientId }
  switch (command.type) {
    case 'AddSitemapPage': {
      // The id was allocated for this request: finding it means a retried request already added the page.
      if (findPage(sitemap.pages, command.page_id)) return []
      if (sitemap.pages.length >= MAX_SITEMAP_PAGES) {
        throw new DomainError('sitemap_page_limit', 'The project has as many sitemap pages as it may', `at most ${MAX_SITEMAP_PAGES} pages`)
      }
      const f = command.fields
      assertSlugFree(sitemap.pages, f.slug, null)
      assertParentFits(sitemap.pages, null, f.parent_id)
      const position = f.position ?? nextPosition(sitemap.pages, f.parent_id)
      if (command.status === 'published') publishedNeedsPost(command.page_id)
      return [
        {
          type: 'SitemapPageAdded',
          data: { ...ids, page_id: command.page_id, status: command.status, ...fieldsOf({ ...f, position }) },
        },
      ]
    }
    case 'UpdateSitemapPage': {
      const page = livePage(sitemap.pages, command.page_id)
      const next = fieldsOf({ ...page, ...command.changes })
      if (sameFields(page, next)) return [] // nothing changes: nothing recorded
      if (next.slug !== page.slug) assertSlugFree(sitemap.pages, next.slug, page.id)
      if (next.parent_id !== page.parent_id) assertParentFits(sitemap.pages, page.id, next.parent_id)
      return [{ type: 'SitemapPageUpdated', data: { ...ids, page_id: page.id, ...next } }]
    }
    case 'SetSitemapPageStatus': {
      const page = livePage(sitemap.pages, command.page_id)
      const wpPostId = command.wp_post_id ?? page.wp_post_id
      if (page.status === command.status && wpPostId === page.wp_post_id) return []
      if (page.status !== command.status && !canMovePage(page.status, command.status)) {
        throw new DomainError(
          'sitemap_page_status_invalid',
          'The page cannot move to that status from its current one',
          `sitemap page ${page.id} is ${page.status}; it can move to ${pageMovesFrom(page.status).join(', ')}`,
        )
      }
      if (command.status === 'published' && wpPostId === null) publishedNeedsPost(page.id)
      return [
        {
          type: 'SitemapPageStatusChanged',
          data: { ...ids, page_id: page.id, from: page.status, to: command.status, wp_post_id: wpPostId },
        },
      ]
    }
    case 'DeleteSitemapPage': {
      const page = findPage(sitemap.pages, command.page_id)
      if (!page) livePage(sitemap.pages, command.page_id) // throws not_found
      if (page!.deleted) return [] // deleting again changes nothing (a retried request)
      const below = descendantsDeepestFirst(sitemap.pages, page!.id)
      if (below.length > 0 && !command.with_children) {
        throw new DomainError(
          'sitemap_page_has_children',
          'The page has child pages',
          `sitemap page ${page!.id} has ${below.length} page(s) below it: ${below.map((p) => p.id).join(', ')}`,
        )
      }
      return [...below, page!].map((p) => ({ type: 'SitemapPageDeleted' as const, data: { ...ids, page_id: p.id } }))
    }
    default:
      return assertNever(command)
  }
}

function publishedNeedsPost(pageId: number): never {
  throw new DomainError(
    'validation_failed',
    'A published page needs its WordPress post id',
    `sitemap page ${pageId}: pass wp_post_id with status published`,
  )
}

/** The sitemap after one page event. */
export function evolveSitemap(pages: readonly SitemapPageRecord[], event: SitemapPageEvent): readonly SitemapPageRecord[] {
  const patch = (id: number, change: (p: SitemapPageRecord) => SitemapPageRecord) => pages.map((p) => (p.id === id ? change(p) : p))
  switch (event.type) {
    case 'SitemapPageAdded': {
      const d = event.data
      if (findPage(pages, d.page_id)) return pages
      return [...pages, { id: d.page_id, status: d.status, wp_post_id: null, deleted: false, ...fieldsOf(d) }]
    }
    case 'SitemapPageUpdated':
      return patch(event.data.page_id, (p) => ({ ...p, ...fieldsOf(event.data) }))
    case 'SitemapPageStatusChanged':
      return patch(event.data.page_id, (p) => ({ ...p, status: event.data.to, wp_post_id: event.data.wp_post_id }))
    case 'SitemapPageDeleted':
      return patch(event.data.page_id, (p) => ({ ...p, deleted: true }))
    default:
      return assertNever(event)
  }
}
