import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional architecture data. */
export async function seedSandboxArchitecture(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
