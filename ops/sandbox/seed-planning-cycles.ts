import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { setHourBudget } from '../../commands/planning/cycles.js'
import { fixtureMonths, momentIn } from '../../domain/sandbox/fixture.js'

/**
 * The sandbox's fictional hour budgets, through the command, each at its moment: 8 hours a month from three
 * months back (the agency's starter retainer), raised to 10 from this month when the client added the
 * water heater service. The cycle views read it beside the seeded action items.
 */
export async function seedSandboxCycles(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const now = write.clock()
  const [first, , , current] = fixtureMonths(now, 4) as [string, string, string, string]
  const at = (month: string, index: number): WriteDeps => ({ ...write, clock: () => momentIn(month, index, 8, now) })
  await setHourBudget(at(first, 0), ctx, { clientId, callerOrgId: orgId, fromMonth: first, hours: 8 })
  await setHourBudget(at(current, 1), ctx, { clientId, callerOrgId: orgId, fromMonth: current, hours: 10 })
}
