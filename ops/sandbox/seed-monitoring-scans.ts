import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional scans data. */
export async function seedSandboxScans(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
