import type { Selectable } from 'kysely'
import type { SitemapPageStatus, SitemapPageType } from '../../../domain/publishing/projects/values.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { SitemapPagesTable } from './tables.js'

export type SitemapPageRow = Selectable<SitemapPagesTable>

/** A sitemap page as the API shows it, with where it sits in the tree. */
export interface SitemapPageView {
  id: number
  project_id: number
  client_id: number
  title: string
  slug: string
  parent_id: number | null
  page_type: SitemapPageType
  position: number
  primary_keyword: string | null
  status: SitemapPageStatus
  wp_post_id: number | null
  /** 1: a top-level page. */
  depth: number
  /** The page's address on the site from its ancestors' slugs: '/' for the home page, '/services/drain-cleaning/' below. */
  path: string
  created_at: string
  updated_at: string
  status_changed_at: string
  deleted_at: string | null
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** Every page of the project (deleted ones too: a deleted page's children are deleted with it, its own row answers). */
async function projectPages(read: ReadDb, projectId: number): Promise<SitemapPageRow[]> {
  return read.selectFrom('sitemap_pages').selectAll().where('project_id', '=', projectId).execute()
}

function placeOf(byId: ReadonlyMap<number, SitemapPageRow>, row: SitemapPageRow): { depth: number; path: string } {
  const slugs: string[] = []
  let current: SitemapPageRow | undefined = row
  for (let hops = 0; current && hops <= byId.size; hops++) {
    if (current.slug !== '') slugs.unshift(current.slug)
    current = current.parent_id === null ? undefined : byId.get(current.parent_id)
  }
  let depth = 1
  for (let id = row.parent_id; id !== null && depth <= byId.size; depth++) id = byId.get(id)?.parent_id ?? null
  return { depth, path: slugs.length === 0 ? '/' : `/${slugs.join('/')}/` }
}

function view(byId: ReadonlyMap<number, SitemapPageRow>, r: SitemapPageRow): SitemapPageView {
  return {
    id: r.id,
    project_id: r.project_id,
    client_id: r.client_id,
    title: r.title,
    slug: r.slug,
    parent_id: r.parent_id,
    page_type: r.page_type as SitemapPageType,
    position: r.position,
    primary_keyword: r.primary_keyword,
    status: r.status as SitemapPageStatus,
    wp_post_id: r.wp_post_id,
    ...placeOf(byId, r),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    status_changed_at: r.status_changed_at.toISOString(),
    deleted_at: iso(r.deleted_at),
  }
}

/** The page if `orgId` may see it (null: any organization), deleted or not; not_found alike for missing and foreign. */
export async function sitemapPageForOrg(read: ReadDb, pageId: number, orgId: number | null): Promise<SitemapPageRow> {
  let query = read.selectFrom('sitemap_pages').selectAll().where('id', '=', pageId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('sitemap page', pageId)
  return row
}

/** One page as the API shows it. */
export async function sitemapPageView(read: ReadDb, row: SitemapPageRow): Promise<SitemapPageView> {
  const pages = await projectPages(read, row.project_id)
  return view(new Map(pages.map((p) => [p.id, p])), row)
}

/** The project's live pages in tree order (each page, then its children by position), optionally of one status. */
export async function sitemapPagesForProject(read: ReadDb, projectId: number, status?: SitemapPageStatus): Promise<SitemapPageView[]> {
  const pages = await projectPages(read, projectId)
  const byId = new Map(pages.map((p) => [p.id, p]))
  const live = pages.filter((p) => p.deleted_at === null)
  const children = new Map<number | null, SitemapPageRow[]>()
  for (const p of live) children.set(p.parent_id, [...(children.get(p.parent_id) ?? []), p])
  for (const list of children.values()) list.sort((a, b) => a.position - b.position || a.id - b.id)
  const ordered: SitemapPageRow[] = []
  const walk = (parentId: number | null) => {
    for (const p of children.get(parentId) ?? []) {
      ordered.push(p)
      walk(p.id)
    }
  }
  walk(null)
  return ordered.filter((p) => status === undefined || p.status === status).map((p) => view(byId, p))
}
