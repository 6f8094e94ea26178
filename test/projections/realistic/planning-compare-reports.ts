import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The compare reports part of the realistic log, through HTTP: a report of the first client's September
 * (the action items part wrote its items), the same month filed again against another month (the same
 * report, its file replaced), October by a platform key, and the other organization's attempt refused.
 */
export async function writeCompareReportsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [orgA] = log.orgIds as [number]
  const [plumbers] = log.clientIds as [number]
  await call('create_compare_report', { client_id: plumbers, month: '2026-09' }, keys.orgA)
  await call('create_compare_report', { client_id: plumbers, month: '2026-09', against_month: '2026-07' }, keys.orgA) // filed again
  await call('create_compare_report', { client_id: plumbers, month: '2026-10', org_id: orgA })
  const foreign = await ts.rpc('create_compare_report', { client_id: plumbers, month: '2026-10' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign compare report answered ${foreign.statusCode}`)
}
