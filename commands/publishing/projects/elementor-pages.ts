import { createHash } from 'node:crypto'
import { elementorPages } from '../../../domain/publishing/projects/elementor-page.js'
import { parseElementorData } from '../../../domain/publishing/projects/elementor-values.js'
import { countWidgets } from '../../../domain/publishing/projects/elementor-widgets.js'
import { openProject } from '../../../domain/publishing/projects/website-project.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../../command-handler.js'
import type { Position } from '../../event-store/port.js'
import { websiteProjectOfOrg } from './website-projects.js'

export interface ElementorPageInput {
  readonly wpPostId: number
  readonly title: string
  readonly slug: string | null
  readonly status: string | null
  readonly link: string | null
  readonly modifiedGmt: string
  readonly elementorData: string
}

/**
 * record_elementor_page: the page as read from the site (by an agent, or by sync_elementor_pages). The
 * project must be the caller's and not archived; the data must be a JSON array within the cap. Its sha256 is
 * computed here (domain code has no crypto); the same stamp and sha256 again record nothing.
 */
export async function recordElementorPage(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; page: ElementorPageInput },
): Promise<{ recorded: boolean; position: Position | null }> {
  const project = await websiteProjectOfOrg(deps, input.orgId, input.projectId)
  openProject(project, project.projectId)
  const p = input.page
  const elements = parseElementorData(p.elementorData)
  const outcome = await handleCommand(deps, {
    aggregate: elementorPages,
    id: project.projectId,
    command: {
      type: 'RecordPage',
      project_id: project.projectId,
      client_id: project.clientId,
      page: {
        wp_post_id: p.wpPostId,
        title: p.title,
        slug: p.slug,
        status: p.status,
        link: p.link,
        modified_gmt: p.modifiedGmt,
        elementor_data: p.elementorData,
        elementor_data_sha256: createHash('sha256').update(p.elementorData, 'utf8').digest('hex'),
        widget_counts: countWidgets(elements),
      },
    },
    context,
    orgId: project.orgId,
  })
  return { recorded: outcome.events.length > 0, position: outcome.position }
}

/**
 * remove_elementor_page: the page is gone from the site (an archived project may still be told: it records
 * what the site has). A page never recorded is not_found; one removed before changes nothing.
 */
export async function removeElementorPage(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number | null; projectId: number; wpPostId: number },
): Promise<{ removed: boolean; position: Position | null }> {
  const project = await websiteProjectOfOrg(deps, input.orgId, input.projectId)
  const outcome = await handleCommand(deps, {
    aggregate: elementorPages,
    id: project.projectId,
    command: { type: 'RemovePage', project_id: project.projectId, client_id: project.clientId, wp_post_id: input.wpPostId },
    context,
    orgId: project.orgId,
  })
  return { removed: outcome.events.length > 0, position: outcome.position }
}
