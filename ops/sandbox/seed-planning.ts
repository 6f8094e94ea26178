import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { seedSandboxActionItems } from './seed-planning-action-items.js'
import { seedSandboxClientGroups } from './seed-planning-groups.js'
import { seedSandboxCycles } from './seed-planning-cycles.js'

/** The sandbox's fictional planning data: a client group, a month of action items with a closed cycle before it, an hour budget (the compare report is filed by seed.ts once the read models show all of it: seed-planning-compare-reports.ts). */
export async function seedSandboxPlanning(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  // The budget first: last month's seeded close records the budget it closed with (hourBudgetFor).
  await seedSandboxCycles(write, ctx, orgId, clientId)
  await seedSandboxActionItems(write, ctx, orgId, clientId)
  await seedSandboxClientGroups(write, ctx, orgId, clientId)
}
