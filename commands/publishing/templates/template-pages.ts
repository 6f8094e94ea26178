import { liveCatalogEntry } from '../../../domain/publishing/templates/library-catalog.js'
import {
  findTemplatePage,
  type ProjectTemplatePagesState,
  projectTemplatePages,
  type TemplatePageInput,
} from '../../../domain/publishing/templates/project-template-pages.js'
import { findSectionTemplate } from '../../../domain/publishing/templates/section-catalog.js'
import { assertFilledFields } from '../../../domain/publishing/templates/section-rules.js'
import type { Change, PageSection } from '../../../domain/publishing/templates/values.js'
import { DomainError, NotFoundError } from '../../../domain/shared/errors.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import type { WebsiteProjectState } from '../../../domain/publishing/projects/website-project.js'
import { livePage } from '../../../domain/publishing/projects/sitemap-tree.js'
import { websiteProjectOfOrg } from '../projects/website-projects.js'
import { loadTemplateCatalog } from './catalog.js'
import { loadSectionCatalog } from './section-templates.js'

/** A project's template pages, folded from their stream. */
export function loadProjectTemplatePages(deps: Pick<WriteDeps, 'store'>, projectId: number): Promise<ProjectTemplatePagesState> {
  return loadState(deps.store, projectTemplatePages, projectId)
}

/**
 * Refuses sections that reference what the page may not take: a section template that does not exist, or
 * is retired (unless the page already had it: retiring one leaves the pages built from it alone), filled
 * with values its fields do not take; a catalog template when the project has no library client, or one its
 * library does not hold.
 */
async function checkSections(
  deps: WriteDeps,
  libraryClientId: number | null,
  sections: readonly PageSection[],
  kept: readonly PageSection[],
): Promise<void> {
  const catalog = await loadSectionCatalog(deps)
  const library = libraryClientId === null ? null : await loadTemplateCatalog(deps, libraryClientId)
  for (const [index, section] of sections.entries()) {
    const where = `sections[${index}]`
    if (section.source === 'section_template') {
      const template = findSectionTemplate(catalog, section.template_id)
      if (!template) throw new NotFoundError('section template', section.template_id)
      const hadIt = kept.some((k) => k.source === 'section_template' && k.template_id === template.id)
      if (template.status === 'retired' && !hadIt) {
        throw new DomainError('section_template_retired', 'The section template is retired', `${where}: section template ${template.id}`)
      }
      assertFilledFields(where, template.fields, section.fields)
    } else {
      if (library === null) {
        throw new DomainError(
          'template_page_library_missing',
          'The project has no library client',
          `${where}: a catalog template needs the project's library_client_id`,
        )
      }
      if (!liveCatalogEntry(library, section.template_id)) throw new NotFoundError('template catalog entry', section.template_id)
    }
  }
}

/** The organization's project, not archived (an archived project is read-only). */
async function writableProject(deps: WriteDeps, callerOrgId: number | null, projectId: number): Promise<WebsiteProjectState> {
  const project = await websiteProjectOfOrg(deps, callerOrgId, projectId)
  if (project.status === 'archived') {
    throw new DomainError('website_project_archived', 'The website project is archived', `website project ${projectId}`)
  }
  return project
}

/**
 * add_template_page: a page of the organization's project, built from section templates and the project's
 * library client's catalog; at most one per sitemap page of the project.
 */
export async function addTemplatePage(
  deps: WriteDeps,
  context: CommandContext,
  input: TemplatePageInput & { callerOrgId: number | null; projectId: number },
): Promise<{ pageId: number; position: Position | null }> {
  const { callerOrgId, projectId, ...page } = input
  const project = await writableProject(deps, callerOrgId, projectId)
  if (page.sitemap_page_id !== null) livePage(project.pages, page.sitemap_page_id)
  await checkSections(deps, project.fields.library_client_id, page.sections, [])
  const pageId = await deps.ids.next('template_page')
  const outcome = await handleCommand(deps, {
    aggregate: projectTemplatePages,
    id: projectId,
    command: { type: 'AddTemplatePage', project_id: projectId, client_id: project.clientId, page_id: pageId, ...page },
    context,
    orgId: project.orgId,
  })
  return { pageId, position: outcome.position }
}

/** update_template_page: what is given replaces what the page had; the same values again change nothing. */
export async function updateTemplatePage(
  deps: WriteDeps,
  context: CommandContext,
  input: Change<TemplatePageInput> & { callerOrgId: number | null; projectId: number; pageId: number },
): Promise<{ updated: boolean; position: Position | null }> {
  const { callerOrgId, projectId, pageId, ...change } = input
  const project = await writableProject(deps, callerOrgId, projectId)
  const current = findTemplatePage(await loadProjectTemplatePages(deps, projectId), pageId)
  if (!current) throw new NotFoundError('template page', pageId)
  // A page moved to another sitemap page names a live page of this project (the one it has may since be deleted).
  if (change.sitemap_page_id != null && change.sitemap_page_id !== current.sitemapPageId) livePage(project.pages, change.sitemap_page_id)
  if (change.sections) await checkSections(deps, project.fields.library_client_id, change.sections, current.sections)
  const outcome = await handleCommand(deps, {
    aggregate: projectTemplatePages,
    id: projectId,
    command: { type: 'UpdateTemplatePage', project_id: projectId, client_id: project.clientId, page_id: pageId, ...change },
    context,
    orgId: project.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}
