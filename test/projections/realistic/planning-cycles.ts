import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The hour budgets part of the realistic log, through HTTP: a budget set, replaced for a later month, set again
 * unchanged (no event), set for the same month again with new hours, removed from a month on (hours null); one
 * in the other organization; a foreign attempt refused. (Action items and their closes are the action items
 * part's; the cycle views read both.)
 */
export async function writeCyclesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  await call('set_hour_budget', { client_id: plumbers, hours: 10, from_month: '2026-09' }, keys.orgA)
  await call('set_hour_budget', { client_id: plumbers, hours: 12, from_month: '2026-11' }, keys.orgA)
  await call('set_hour_budget', { client_id: plumbers, hours: 12, from_month: '2026-11' }, keys.orgA) // unchanged
  await call('set_hour_budget', { client_id: plumbers, hours: 14.5, from_month: '2026-11' }, keys.orgA)
  await call('set_hour_budget', { client_id: heaters, hours: 6, from_month: '2026-10' }, keys.orgA)
  await call('set_hour_budget', { client_id: heaters, hours: null, from_month: '2027-01' }, keys.orgA)
  await call('set_hour_budget', { client_id: bravo, hours: 20, from_month: '2026-10' }, keys.orgB)
  const foreign = await ts.rpc('set_hour_budget', { client_id: plumbers, hours: 1, from_month: '2026-10' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign set_hour_budget answered ${foreign.statusCode}`)
}
