import { budgetFor, hourBudget, type HourBudgetState } from '../../domain/planning/cycles/hour-budget.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** A client's hour budget settings, as the log holds them. */
export function loadHourBudget(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<HourBudgetState> {
  return loadState(deps.store, hourBudget, clientId)
}

/** The hours a client's month holds (null: no budget set), for the strategist's fit and a month's close. */
export async function hourBudgetFor(deps: Pick<WriteDeps, 'store'>, clientId: number, month: string): Promise<number | null> {
  return budgetFor(await loadHourBudget(deps, clientId), month)
}

/** set_hour_budget: `hours` from `fromMonth` on (null removes it from then on); the same setting again changes nothing. */
export async function setHourBudget(
  deps: WriteDeps,
  context: CommandContext,
  input: { clientId: number; callerOrgId: number | null; fromMonth: string; hours: number | null },
): Promise<Position | null> {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const outcome = await handleCommand(deps, {
    aggregate: hourBudget,
    id: owner.id,
    command: { type: 'SetHourBudget', client_id: owner.id, from_month: input.fromMonth, hours: input.hours },
    context,
    orgId: owner.orgId,
  })
  return outcome.position
}
