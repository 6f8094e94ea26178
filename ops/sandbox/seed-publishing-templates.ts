import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional section templates, the template catalog and template pages. */
export async function seedSandboxTemplates(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
