import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/** The sandbox's fictional blog topics, drafts and the publishing schedule. */
export async function seedSandboxBlog(_write: WriteDeps, _ctx: CommandContext, _orgId: number, _clientId: number): Promise<void> {}
