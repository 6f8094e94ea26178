import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional renders data. */
export async function seedSandboxRenders(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
