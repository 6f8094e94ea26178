import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional gsc data for its client. */
export async function seedSandboxGsc(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
