import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional redirects. */
export async function seedSandboxRedirects(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
