import type { Aggregate } from '../../shared/aggregate.js'
import type { CyclesEvent } from './events.js'

/** A client's hour budget settings, by the month each starts: stream `hour_budget-<client_id>`. */
export const hourBudgetStream = (clientId: number) => `hour_budget-${clientId}`

export interface HourBudgetState {
  /** Settings by month, ascending; a later setting for the same month replaces the earlier. */
  readonly settings: readonly { readonly fromMonth: string; readonly hours: number | null }[]
}

export type HourBudgetCommand = { type: 'SetHourBudget'; client_id: number; from_month: string; hours: number | null }

/** The budget in effect in `month` (the latest setting from that month or before), null when none. */
export function budgetFor(state: HourBudgetState, month: string): number | null {
  let hours: number | null = null
  for (const s of state.settings) if (s.fromMonth <= month) hours = s.hours
  return hours
}

function evolve(state: HourBudgetState, event: CyclesEvent): HourBudgetState {
  const d = event.data
  const settings = [...state.settings.filter((s) => s.fromMonth !== d.from_month), { fromMonth: d.from_month, hours: d.hours }]
  settings.sort((a, b) => (a.fromMonth < b.fromMonth ? -1 : 1))
  return { settings }
}

function decide(command: HourBudgetCommand, state: HourBudgetState): CyclesEvent[] {
  const same = state.settings.find((s) => s.fromMonth === command.from_month)
  if (same && same.hours === command.hours) return [] // set again: nothing changes
  return [{ type: 'HourBudgetSet', data: { client_id: command.client_id, from_month: command.from_month, hours: command.hours } }]
}

export const hourBudget: Aggregate<HourBudgetState, HourBudgetCommand, CyclesEvent> = {
  streamOf: hourBudgetStream,
  initialState: () => ({ settings: [] }),
  evolve,
  decide,
}
