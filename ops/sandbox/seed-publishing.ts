import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { seedSandboxSiteConnections } from './seed-publishing-connections.js'
import { seedSandboxPushFailures } from './seed-publishing-push-failures.js'
import { seedSandboxRedirects } from './seed-publishing-redirects.js'
import { seedSandboxContentPages } from './seed-publishing-content-pages.js'
import { seedSandboxWebsiteProjects } from './seed-publishing-projects.js'
import { seedSandboxTemplates } from './seed-publishing-templates.js'

/** The sandbox's fictional publishing data: a connected WordPress site, push failures, redirects, content pages, a website project, templates. */
export async function seedSandboxPublishing(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await seedSandboxSiteConnections(write, ctx, orgId, clientId)
  await seedSandboxPushFailures(write, ctx, orgId, clientId)
  await seedSandboxRedirects(write, ctx, orgId, clientId)
  await seedSandboxContentPages(write, ctx, orgId, clientId)
  const project = await seedSandboxWebsiteProjects(write, ctx, orgId, clientId)
  await seedSandboxTemplates(write, ctx, orgId, clientId, project)
}
