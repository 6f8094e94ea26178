import type { ProjectFields, WebsiteProjectCommand, WebsiteProjectState } from '../../../domain/publishing/projects/website-project.js'
import { websiteProject } from '../../../domain/publishing/projects/website-project.js'
import type { ProjectStatus } from '../../../domain/publishing/projects/values.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { writableClient } from '../../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'

/** The project folded from its stream (consistent with the last write); projectId 0 when there is none. */
export function loadWebsiteProject(deps: Pick<WriteDeps, 'store'>, projectId: number): Promise<WebsiteProjectState> {
  return loadState(deps.store, websiteProject, projectId)
}

/**
 * The project if the caller may see it (orgId null: a platform caller, any organization); not_found alike
 * for a missing and a foreign one. What another sub-area's command checks before writing about a project
 * (template pages).
 */
export async function websiteProjectOfOrg(
  deps: Pick<WriteDeps, 'store'>,
  orgId: number | null,
  projectId: number,
): Promise<WebsiteProjectState> {
  const state = await loadWebsiteProject(deps, projectId)
  if (state.projectId === 0 || (orgId !== null && state.orgId !== orgId)) throw new NotFoundError('website project', projectId)
  return state
}

/** The library client, when one is named: the organization's, not deleted (its WordPress holds the templates). */
async function checkLibraryClient(deps: WriteDeps, orgId: number, libraryClientId: number | null): Promise<void> {
  if (libraryClientId !== null) await writableClient(deps.store, libraryClientId, orgId)
}

/**
 * add_website_project: a new project for the organization's client (not deleted). site_url null takes the
 * client's website (a rebuild works on the site the client has; a new site may not have an address yet and
 * names null explicitly through update_website_project).
 */
export async function addWebsiteProject(
  deps: WriteDeps,
  context: CommandContext,
  input: {
    orgId: number
    clientId: number
    status?: ProjectStatus
    fields: Omit<ProjectFields, 'site_url'> & { site_url?: string | null }
  },
): Promise<{ projectId: number; position: Position | null }> {
  const client = await writableClient(deps.store, input.clientId, input.orgId)
  await checkLibraryClient(deps, input.orgId, input.fields.library_client_id)
  const projectId = await deps.ids.next('website_project')
  const site_url = input.fields.site_url === undefined ? client.websiteUrl || null : input.fields.site_url
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: projectId,
    command: {
      type: 'AddProject',
      project_id: projectId,
      org_id: input.orgId,
      client_id: input.clientId,
      status: input.status ?? 'planning',
      fields: { ...input.fields, site_url },
    },
    context,
    orgId: input.orgId,
  })
  return { projectId, position: outcome.position }
}

/** update_website_project: the fields given replace the project's (the others stay); an archived project is refused. */
export async function updateWebsiteProject(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; changes: Partial<ProjectFields> },
): Promise<{ updated: boolean; position: Position | null }> {
  const current = await websiteProjectOfOrg(deps, input.orgId, input.projectId)
  if (input.changes.library_client_id !== undefined) {
    await checkLibraryClient(deps, current.orgId, input.changes.library_client_id)
  }
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: (state): WebsiteProjectCommand => ({
      type: 'UpdateProject',
      project_id: input.projectId,
      fields: { ...state.fields, ...input.changes },
    }),
    context,
    visibleTo: input.orgId,
  })
  return { updated: outcome.events.length > 0, position: outcome.position }
}

/** set_website_project_status: one stage forward or back, archived from any (status-flow.ts). */
export async function setWebsiteProjectStatus(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; status: ProjectStatus },
): Promise<{ changed: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: websiteProject,
    id: input.projectId,
    command: { type: 'SetProjectStatus', project_id: input.projectId, status: input.status },
    context,
    visibleTo: input.orgId,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}
