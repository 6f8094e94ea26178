import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The pages and site-edits part of the realistic log, through HTTP: pages added (one URL twice, one
 * updated), a deactivation, snapshots, site edits staged, one applied and rolled back, one failed apply
 * (unpublishable payload), and a foreign-org attempt refused.
 */
export async function writeSiteEditsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers] = log.clientIds as [number]
  const home = await call<number>(
    'add_page',
    { page: { client_id: plumbers, url: 'https://plumbers.example.com/', title: 'Home', wp_post_id: 2 } },
    keys.orgA,
  )
  const about = await call<number>(
    'add_page',
    { page: { client_id: plumbers, url: 'https://plumbers.example.com/about', title: 'About' } },
    keys.orgA,
  )
  await call('add_page', { page: { client_id: plumbers, url: 'https://PLUMBERS.example.com/about/', title: 'About us' } }, keys.orgA) // same page, new title
  await call('add_page', { page: { client_id: plumbers, url: 'https://plumbers.example.com/old', active: true } }, keys.orgA)
  await call(
    'deactivate_pages_not_in_list',
    { client_id: plumbers, active_urls: ['https://plumbers.example.com/', 'https://plumbers.example.com/about'] },
    keys.orgA,
  )
  await call('add_snapshot', { snapshot: { page_id: home, content: '<p>Fast drain cleaning in Austin.</p>' } }, keys.orgA)
  await call('add_snapshot', { snapshot: { page_id: about, content: 'Family owned since 1990.', title: 'About' } }, keys.orgA)
  const payload = JSON.stringify({ proposed_content: '<p>Same-day drain cleaning in Austin.</p>', page_id: home })
  const applied = await call<number>(
    'create_site_edit',
    { client_id: plumbers, operation: 'elementor_rewrite', payload, page_url: 'https://plumbers.example.com/' },
    keys.orgA,
  )
  await call('apply_site_edit', { edit_id: applied, approved_by: 'Dana' }, keys.orgA)
  await call('rollback_site_edit', { edit_id: applied }, keys.orgA)
  const broken = await call<number>('create_site_edit', { client_id: plumbers, operation: 'note', payload: 'not json' }, keys.orgA)
  const failed = await ts.rpc('apply_site_edit', { edit_id: broken }, keys.orgA)
  if (failed.statusCode !== 422) throw new Error(`an unpublishable apply answered ${failed.statusCode}`)
  await call<number>('create_site_edit', { client_id: plumbers, operation: 'elementor_rewrite', payload }, keys.orgA) // stays proposed
  const foreign = await ts.rpc('apply_site_edit', { edit_id: applied }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign apply answered ${foreign.statusCode}`)
}
