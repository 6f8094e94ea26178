import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The redirects part of the realistic log, through HTTP: redirect site edits staged (site paths, so any
 * client site), one applied and rolled back, one applied and left live, one left proposed, a refused payload,
 * and a foreign list refused.
 */
export async function writeRedirectsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [, heaters] = log.clientIds as [number, number]
  const stage = (from_url: string, to_url: string, status_code: number) =>
    call<number>(
      'create_site_edit',
      { client_id: heaters, operation: 'redirect', payload: JSON.stringify({ from_url, to_url, status_code }) },
      keys.orgA,
    )
  const undone = await stage('/boilers-old', '/boilers', 301)
  await call('apply_site_edit', { edit_id: undone }, keys.orgA)
  await call('rollback_site_edit', { edit_id: undone }, keys.orgA)
  const live = await stage('/winter-deals', '/deals', 302)
  await call('apply_site_edit', { edit_id: live, approved_by: 'Dana' }, keys.orgA)
  await stage('/tankless-old', '/tankless', 308) // stays proposed
  const refused = await ts.rpc('create_site_edit', { client_id: heaters, operation: 'redirect', payload: '{"from_url":"/a"}' }, keys.orgA)
  if (refused.statusCode !== 400) throw new Error(`a redirect without to_url answered ${refused.statusCode}`)
  const foreign = await ts.rpc('list_redirects', { client_id: heaters }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign list_redirects answered ${foreign.statusCode}`)
}
