import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional intent data for its client. */
export async function seedSandboxIntent(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
