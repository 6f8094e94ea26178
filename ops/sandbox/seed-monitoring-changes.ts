import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional changes data. */
export async function seedSandboxSiteChanges(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
