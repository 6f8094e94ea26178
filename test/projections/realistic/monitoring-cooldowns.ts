import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The cooldowns part of the realistic log, through HTTP: an operator cooldown set, moved, set again unchanged
 * (no event), cleared and cleared again (no event); a scan_failures one and a publish one cleared by "every
 * reason"; one in the other organization; a foreign attempt refused.
 */
export async function writeCooldownsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  await call('set_client_cooldown', { client_id: plumbers, reason: 'operator', minutes: 60, note: 'Theme migration' }, keys.orgA)
  const moved = await call<{ until: string }>('set_client_cooldown', { client_id: plumbers, reason: 'operator', minutes: 120 }, keys.orgA)
  await call('set_client_cooldown', { client_id: plumbers, reason: 'operator', until: moved.until }, keys.orgA) // unchanged
  await call('clear_client_cooldown', { client_id: plumbers, reason: 'operator' }, keys.orgA)
  await call('clear_client_cooldown', { client_id: plumbers, reason: 'operator' }, keys.orgA) // nothing active
  await call('set_client_cooldown', { client_id: heaters, reason: 'scan_failures', minutes: 360 }, keys.orgA)
  await call('set_client_cooldown', { client_id: heaters, reason: 'publish', minutes: 15 }, keys.orgA)
  await call('clear_client_cooldown', { client_id: heaters }, keys.orgA) // both
  await call('set_client_cooldown', { client_id: bravo, reason: 'operator', minutes: 30 }, keys.orgB)
  const foreign = await ts.rpc('set_client_cooldown', { client_id: plumbers, reason: 'operator', minutes: 30 }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign set_client_cooldown answered ${foreign.statusCode}`)
}
