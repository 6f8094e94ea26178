import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional client images, their sync to the site and alt text. */
export async function seedSandboxImages(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
