import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional client groups. */
export async function seedSandboxClientGroups(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
