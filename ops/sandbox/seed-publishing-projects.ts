import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional website projects, sitemap pages and generated content. */
export async function seedSandboxWebsiteProjects(
  _write: WriteDeps,
  _ctx: CommandContext,
  _orgId: number,
  _clientId: number,
): Promise<void> {}
