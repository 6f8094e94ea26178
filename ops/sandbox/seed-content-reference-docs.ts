import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional reference documents (an organization's brand voice, style guide, service facts). */
export async function seedSandboxReferenceDocs(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
