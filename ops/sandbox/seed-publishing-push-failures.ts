import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional push failures. */
export async function seedSandboxPushFailures(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
