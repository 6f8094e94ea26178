import { slugFromName } from '../../../domain/clients/slug-from-name.js'
import type { SitemapPageFields } from '../../../domain/publishing/projects/sitemap-tree.js'
import { DomainError } from '../../../domain/shared/errors.js'
import type { SitemapPageStatus } from '../../../domain/publishing/projects/values.js'
import { websiteProject } from '../../../domain/publishing/projects/website-project.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/*
 * The sitemap's writes: each decided by the project's aggregate (stream website_project-<project_id>) against
 * every page of the project. `orgId` null: a platform caller, any organization.
 */

interface PageTarget {
  readonly orgId: number | null
  readonly projectId: number
}

/** The slug a page gets when none is given: '' for the home page (the site's root), else its title's. */
function defaultSlug(title: string, pageType: SitemapPageFields['page_type']): string {
  if (pageType === 'home') return ''
  const slug = slugFromName(title)
  if (slug === '') {
    throw new DomainError('validation_failed', 'The title gives no slug', `"${title}" has no ASCII letters or digits: pass slug`)
  }
  return slug
}

/**
 * add_sitemap_page: slug free in the project (default: '' for the home page, else the title's), parent a live
 * page of it; position null puts it after its last sibling.
 */
export async function addSitemapPage(
  deps: WriteDeps,
  context: CommandContext,
  input: PageTarget & {
    status: SitemapPageStatus
    fields: Omit<SitemapPageFields, 'position' | 'slug'> & { position: number | null; slug: string | null }
  },
): Promise<{ pageId: number; position: Position | null }> {
  const fields = { ...input.fields, slug: input.fields.slug ?? defaultSlug(input.fields.title, input.fields.page_type) }
  const pageId = await deps.ids.next('sitemap_page')
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: { type: 'AddSitemapPage', project_id: input.projectId, page_id: pageId, status: input.status, fields },
    context,
    visibleTo: input.orgId,
  })
  return { pageId, position: outcome.position }
}

/** update_sitemap_page: the fields given replace the page's; a new slug must be free, a new parent must not make a loop. */
export async function updateSitemapPage(
  deps: WriteDeps,
  context: CommandContext,
  input: PageTarget & { pageId: number; changes: Partial<SitemapPageFields> },
): Promise<{ updated: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: { type: 'UpdateSitemapPage', project_id: input.projectId, page_id: input.pageId, changes: input.changes },
    context,
    visibleTo: input.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}

/** set_sitemap_page_status: forward any number of stages, back one; published needs the page's WordPress post id. */
export async function setSitemapPageStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: PageTarget & { pageId: number; status: SitemapPageStatus; wpPostId: number | null },
): Promise<{ changed: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: {
      type: 'SetSitemapPageStatus',
      project_id: input.projectId,
      page_id: input.pageId,
      status: input.status,
      wp_post_id: input.wpPostId,
    },
    context,
    visibleTo: input.orgId,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}

/** delete_sitemap_page: soft; a page with live children is refused unless withChildren, which deletes them too. */
export async function deleteSitemapPage(
  deps: WriteDeps,
  context: CommandContext,
  input: PageTarget & { pageId: number; withChildren: boolean },
): Promise<{ deletedIds: number[]; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: { type: 'DeleteSitemapPage', project_id: input.projectId, page_id: input.pageId, with_children: input.withChildren },
    context,
    visibleTo: input.orgId,
  })
  return { deletedIds: outcome.events.map((e) => (e.data as { page_id: number }).page_id), position: outcome.position }
}
