import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { markContentExported, recordGeneratedContent } from '../../commands/publishing/projects/generated-content.js'
import { addSitemapPage, setSitemapPageStatus } from '../../commands/publishing/projects/sitemap-pages.js'
import { addWebsiteProject } from '../../commands/publishing/projects/website-projects.js'
import { seedSandboxElementorPages } from './seed-publishing-elementor-pages.js'

/** What the templates seed builds on: the project and its home page. */
export interface SandboxProject {
  readonly projectId: number
  readonly homePageId: number
}

/**
 * The sandbox's fictional website project: a rebuild of the client's site with a small sitemap (home, a
 * services hub with two services, contact), copy written for two pages (the home page's exported, the drain
 * cleaning page's not yet), and the home page published.
 */
export async function seedSandboxWebsiteProjects(
  write: WriteDeps,
  ctx: CommandContext,
  orgId: number,
  clientId: number,
): Promise<SandboxProject> {
  const { projectId } = await addWebsiteProject(write, ctx, {
    orgId,
    clientId,
    status: 'building',
    fields: {
      name: 'Rapid Rooter site rebuild',
      kind: 'rebuild',
      staging_url: 'https://staging.rapidrooterplumbing.example/',
      library_client_id: clientId,
      notes: 'Move to Elementor containers; one page per service and per city.',
    },
  })
  const page = async (title: string, page_type: 'home' | 'service' | 'contact', parent_id: number | null, primary_keyword: string | null) =>
    (
      await addSitemapPage(write, ctx, {
        orgId,
        projectId,
        status: 'planned',
        fields: { title, slug: null, parent_id, page_type, position: null, primary_keyword },
      })
    ).pageId
  const home = await page('Home', 'home', null, 'plumber austin')
  const services = await page('Services', 'service', null, null)
  const drains = await page('Drain cleaning', 'service', services, 'drain cleaning austin')
  await page('Water heater repair', 'service', services, 'water heater repair austin')
  await page('Contact', 'contact', null, null)

  const homeCopy = await recordGeneratedContent(write, ctx, {
    orgId,
    projectId,
    sitemapPageId: home,
    kind: 'page_copy',
    body: '<h1>Austin plumbers who answer the phone</h1><p>Drain cleaning, water heaters and emergency repairs across Austin and Round Rock, 24/7.</p>',
    writer: 'built-in',
  })
  await recordGeneratedContent(write, ctx, {
    orgId,
    projectId,
    sitemapPageId: drains,
    kind: 'page_copy',
    body: '<h1>Drain cleaning in Austin</h1><p>Slow sinks, backed-up main lines and hydro-jetting, with camera inspection before and after.</p>',
    writer: 'built-in',
  })
  await markContentExported(write, ctx, { orgId, projectId, contentIds: [homeCopy.contentId] })
  await setSitemapPageStatus(write, ctx, { orgId, projectId, pageId: home, status: 'published', wpPostId: 7 })
  await seedSandboxElementorPages(write, ctx, orgId, projectId)
  return { projectId, homePageId: home }
}
