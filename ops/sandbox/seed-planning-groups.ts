import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { ensureClientGroup } from '../../commands/planning/groups.js'

/** The sandbox group's name: found again after each reset (its old member rows go with the retired client). */
export const SANDBOX_GROUP_NAME = 'Demo agency: local services'

/** The sandbox's fictional client group: one live group with the sandbox client in it, the same group every reset. */
export async function seedSandboxClientGroups(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await ensureClientGroup(write, ctx, {
    orgId,
    name: SANDBOX_GROUP_NAME,
    description: 'The clients bulk_strategist plans together each month (fictional sandbox data)',
    clientIds: [clientId],
  })
}
