import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional action items. */
export async function seedSandboxActionItems(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
