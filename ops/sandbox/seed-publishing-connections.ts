import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional site connections. */
export async function seedSandboxSiteConnections(
  _write: WriteDeps,
  _ctx: CommandContext,
  _orgId: number,
  _clientId: number,
): Promise<void> {}
