import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional entity-changes data. */
export async function seedSandboxEntityChanges(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
