import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The client groups part of the realistic log, through HTTP: a group created with members (one given twice),
 * a member added again (no event), one added and removed, a rename, a name refused as taken, a deleted
 * group whose name is then reused, a group in the other organization and a foreign attempt refused.
 */
export async function writeClientGroupsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , staging, bravo] = log.clientIds as [number, number, number, number, number]
  const trades = await call<{ id: number }>(
    'create_client_group',
    { name: 'Trades, Texas', description: 'Growth plan', client_ids: [plumbers, heaters, plumbers] },
    keys.orgA,
  )
  await call('add_client_to_group', { group_id: trades.id, client_id: plumbers }, keys.orgA) // already a member
  await call('add_client_to_group', { group_id: trades.id, client_id: staging }, keys.orgA)
  await call('remove_client_from_group', { group_id: trades.id, client_id: staging }, keys.orgA)
  await call('remove_client_from_group', { group_id: trades.id, client_id: staging }, keys.orgA) // not a member
  await call('add_client_to_group', { group_id: trades.id, client_id: staging }, keys.orgA) // back again
  await call('rename_client_group', { group_id: trades.id, name: 'Trades, Central Texas' }, keys.orgA)
  const pilot = await call<{ id: number }>('create_client_group', { name: 'Autopilot pilot', client_ids: [heaters] }, keys.orgA)
  const taken = await ts.rpc('create_client_group', { name: 'trades, central texas' }, keys.orgA)
  if (taken.statusCode !== 409) throw new Error(`a taken group name answered ${taken.statusCode}`)
  await call('delete_client_group', { group_id: pilot.id }, keys.orgA)
  await call('delete_client_group', { group_id: pilot.id }, keys.orgA) // already deleted
  await call('create_client_group', { name: 'Autopilot pilot' }, keys.orgA) // the name is free again
  await call('create_client_group', { name: 'Dentists', client_ids: [bravo] }, keys.orgB)
  const foreign = await ts.rpc('add_client_to_group', { group_id: trades.id, client_id: bravo }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign add_client_to_group answered ${foreign.statusCode}`)
}
