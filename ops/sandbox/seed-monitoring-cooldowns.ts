import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional cooldowns data. */
export async function seedSandboxCooldowns(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
