import { DomainError, NotFoundError } from '../../shared/errors.js'
import { MAX_SITEMAP_DEPTH, type SitemapPageStatus, type SitemapPageType } from './values.js'

/**
 * A project's sitemap: its planned pages as a tree (parent_id), each slug unique among the live pages. The
 * pure rules the project aggregate decides page writes by; a deleted page stays, marked, so its id keeps
 * answering and its content stays readable.
 */
export interface SitemapPageFields {
  readonly title: string
  readonly slug: string
  readonly parent_id: number | null
  readonly page_type: SitemapPageType
  readonly position: number
  readonly primary_keyword: string | null
}

export interface SitemapPageRecord extends SitemapPageFields {
  readonly id: number
  readonly status: SitemapPageStatus
  readonly wp_post_id: number | null
  readonly deleted: boolean
}

export function findPage(pages: readonly SitemapPageRecord[], pageId: number): SitemapPageRecord | undefined {
  return pages.find((p) => p.id === pageId)
}

/** The page, live: not_found when the project has none with this id, sitemap_page_deleted when deleted. */
export function livePage(pages: readonly SitemapPageRecord[], pageId: number): SitemapPageRecord {
  const page = findPage(pages, pageId)
  if (!page) throw new NotFoundError('sitemap page', pageId)
  if (page.deleted) throw new DomainError('sitemap_page_deleted', 'The sitemap page is deleted', `sitemap page ${pageId}`)
  return page
}

/** Refuses a slug another live page of the project has ('' included: one home). */
export function assertSlugFree(pages: readonly SitemapPageRecord[], slug: string, exceptId: number | null): void {
  const holder = pages.find((p) => !p.deleted && p.slug === slug && p.id !== exceptId)
  if (holder) {
    throw new DomainError(
      'sitemap_page_slug_taken',
      'Another page of the project has this slug',
      `"${slug}" is sitemap page ${holder.id} (${holder.title})`,
    )
  }
}

function parentInvalid(detail: string): never {
  throw new DomainError('sitemap_page_parent_invalid', 'The parent cannot hold this page', detail)
}

/** The page's ancestors' ids, nearest first (the chain is acyclic: every write keeps it so). */
export function ancestorsOf(pages: readonly SitemapPageRecord[], parentId: number | null): number[] {
  const chain: number[] = []
  let id = parentId
  while (id !== null && chain.length <= pages.length) {
    chain.push(id)
    id = findPage(pages, id)?.parent_id ?? null
  }
  return chain
}

/**
 * Refuses a parent that is missing, deleted, the page itself or one of its descendants (a cycle), or one
 * so deep the page would sit beyond MAX_SITEMAP_DEPTH. `pageId` null: a page being added (no descendants).
 */
export function assertParentFits(pages: readonly SitemapPageRecord[], pageId: number | null, parentId: number | null): void {
  if (parentId === null) return
  const parent = findPage(pages, parentId)
  if (!parent || parent.deleted) parentInvalid(`sitemap page ${parentId} is not a live page of the project`)
  const chain = [parentId, ...ancestorsOf(pages, parent.parent_id)]
  if (pageId !== null && chain.includes(pageId)) {
    parentInvalid(`sitemap page ${parentId} is sitemap page ${pageId} itself or below it: the tree would loop`)
  }
  const below = pageId === null ? 0 : subtreeDepth(pages, pageId)
  if (chain.length + 1 + below > MAX_SITEMAP_DEPTH) {
    parentInvalid(`the page would sit deeper than ${MAX_SITEMAP_DEPTH} levels`)
  }
}

/** The live children of a page (null: the top-level pages), by position then id. */
export function childrenOf(pages: readonly SitemapPageRecord[], parentId: number | null): SitemapPageRecord[] {
  return pages.filter((p) => !p.deleted && p.parent_id === parentId).sort((a, b) => a.position - b.position || a.id - b.id)
}

/** How many levels hang below a page (0: a leaf). */
function subtreeDepth(pages: readonly SitemapPageRecord[], pageId: number): number {
  let depth = 0
  for (const child of childrenOf(pages, pageId)) depth = Math.max(depth, 1 + subtreeDepth(pages, child.id))
  return depth
}

/** The live pages below a page, deepest first (the order a delete with children records them in). */
export function descendantsDeepestFirst(pages: readonly SitemapPageRecord[], pageId: number): SitemapPageRecord[] {
  const out: SitemapPageRecord[] = []
  for (const child of childrenOf(pages, pageId)) out.push(...descendantsDeepestFirst(pages, child.id), child)
  return out
}

/** The position after the last live sibling: where a page added without one goes. */
export function nextPosition(pages: readonly SitemapPageRecord[], parentId: number | null): number {
  const siblings = childrenOf(pages, parentId)
  return siblings.length === 0 ? 0 : Math.max(...siblings.map((p) => p.position)) + 1
}
