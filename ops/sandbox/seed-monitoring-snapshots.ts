import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional snapshots data. */
export async function seedSandboxSnapshots(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
