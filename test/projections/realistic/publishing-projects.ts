import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The website projects part of the realistic log, through HTTP: a rebuild project with a library client,
 * updated (and updated again to the same values: no event), moved through its stages, archived and taken up
 * again; a new-site project in the other organization; a jump in status refused.
 */
export async function writeWebsiteProjectsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const rebuild = await call<number>(
    'add_website_project',
    { project: { client_id: plumbers, name: 'Plumbers rebuild', library_client_id: heaters, notes: 'Keep the phone number' } },
    keys.orgA,
  )
  await call('update_website_project', { project_id: rebuild, staging_url: 'https://staging.example-plumbers.com' }, keys.orgA)
  await call('update_website_project', { project_id: rebuild, staging_url: 'https://staging.example-plumbers.com' }, keys.orgA) // no change
  await call('set_website_project_status', { project_id: rebuild, status: 'building' }, keys.orgA)
  const jump = await ts.rpc('set_website_project_status', { project_id: rebuild, status: 'live' }, keys.orgA)
  if (jump.statusCode !== 409) throw new Error(`a jump in project status answered ${jump.statusCode}`)
  await call('set_website_project_status', { project_id: rebuild, status: 'archived' }, keys.orgA)
  await call('set_website_project_status', { project_id: rebuild, status: 'planning' }, keys.orgA)
  await call('set_website_project_status', { project_id: rebuild, status: 'building' }, keys.orgA)
  await call('add_website_project', { project: { client_id: bravo, name: 'Dental new site', kind: 'new_site', site_url: null } }, keys.orgB)
  const foreign = await ts.rpc('get_website_project', { project_id: rebuild }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign get_website_project answered ${foreign.statusCode}`)
}
