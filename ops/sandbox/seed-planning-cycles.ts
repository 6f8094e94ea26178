import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional hour budgets and cycles. */
export async function seedSandboxCycles(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
