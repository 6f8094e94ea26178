import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional content pages and Elementor pages. */
export async function seedSandboxContentPages(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
