import { projectContent } from '../../../domain/publishing/projects/project-content.js'
import { livePage } from '../../../domain/publishing/projects/sitemap-tree.js'
import type { ContentKind } from '../../../domain/publishing/projects/values.js'
import { openProject } from '../../../domain/publishing/projects/website-project.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import { websiteProjectOfOrg } from './website-projects.js'

/**
 * record_generated_content: a new version of the page's content of this kind (the page live, its project
 * not archived; both read from the project's stream, then the content appended to the project's content stream).
 */
export async function recordGeneratedContent(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; sitemapPageId: number; kind: ContentKind; body: string; writer: string },
): Promise<{ contentId: number; position: Position | null }> {
  const project = await websiteProjectOfOrg(deps, input.orgId, input.projectId)
  openProject(project, project.projectId)
  livePage(project.pages, input.sitemapPageId)
  const contentId = await deps.ids.next('generated_content')
  const outcome = await handleCommand(deps, {
    aggregate: projectContent,
    id: project.projectId,
    command: {
      type: 'RecordContent',
      project_id: project.projectId,
      org_id: project.orgId,
      client_id: project.clientId,
      content_id: contentId,
      sitemap_page_id: input.sitemapPageId,
      kind: input.kind,
      body: input.body,
      writer: input.writer,
    },
    context,
    orgId: project.orgId,
  })
  return { contentId, position: outcome.position }
}

/** mark_content_exported for one project's contents: those not exported before are marked; returns how many. */
export async function markContentExported(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; projectId: number; contentIds: readonly number[] },
): Promise<{ marked: number; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: projectContent,
    id: input.projectId,
    command: { type: 'MarkExported', project_id: input.projectId, content_ids: input.contentIds },
    context,
    orgId: input.orgId,
  })
  const marked = outcome.events.reduce((n, e) => n + (e.type === 'GeneratedContentExported' ? e.data.content_ids.length : 0), 0)
  return { marked, position: outcome.position }
}

/** mark_content_pushed: the content is on the client's WordPress in post `wpPostId` (again to the same post: nothing). */
export async function markContentPushed(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; projectId: number; contentId: number; wpPostId: number },
): Promise<{ changed: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: projectContent,
    id: input.projectId,
    command: { type: 'MarkPushed', project_id: input.projectId, content_id: input.contentId, wp_post_id: input.wpPostId },
    context,
    orgId: input.orgId,
  })
  return { changed: outcome.events.length > 0, position: outcome.position }
}
