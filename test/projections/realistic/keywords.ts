import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The keywords part of the realistic log, through HTTP: adds (one a get-or-create repeat), a soft delete
 * (twice), bringing the deleted keyword back, deleting it again, and a refused foreign delete.
 */
export async function writeKeywordsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const drain = await call<number>(
    'add_keyword',
    { keyword: { client_id: plumbers, keyword: 'drain cleaning austin', service: 'Drain cleaning', location: 'Austin, TX' } },
    keys.orgA,
  )
  await call('add_keyword', { keyword: { client_id: plumbers, keyword: 'Drain Cleaning, Austin' } }, keys.orgA) // existing
  const nearMe = await call<number>(
    'add_keyword',
    { keyword: { client_id: plumbers, keyword: 'plumber near me', source: 'generated' } },
    keys.orgA,
  )
  await call('delete_keyword', { keyword_id: nearMe }, keys.orgA)
  await call('delete_keyword', { keyword_id: nearMe }, keys.orgA) // already deleted
  await call('add_keyword', { keyword: { client_id: plumbers, keyword: 'Plumber near me' } }, keys.orgA) // restored
  const heater = await call<number>(
    'add_keyword',
    { keyword: { client_id: heaters, keyword: 'water heater repair', source: 'aeo' } },
    keys.orgA,
  )
  await call('delete_keyword', { keyword_id: heater }, keys.orgA)
  await call('add_keyword', { keyword: { client_id: bravo, keyword: 'dental implants miami' } }, keys.orgB)
  const foreign = await ts.rpc('delete_keyword', { keyword_id: drain }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign delete answered ${foreign.statusCode}`)
}
