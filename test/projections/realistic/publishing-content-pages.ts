import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The content pages part of the realistic log, through HTTP: pages created with defaults and with every
 * field, a second page for the same post refused, updates along the statuses (draft → pending_review →
 * published → failed → verified, trashed and back to draft), the same values again (no event), a move the
 * table refuses, a page in the other organization and a foreign update refused.
 */
export async function writeContentPagesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const verify = JSON.stringify({ url: 'https://plumbers.example/drain-cleaning/', checks: [{ name: 'http_200', passed: true }] })
  const drain = await call<number>(
    'create_content_page',
    { client_id: plumbers, wp_post_id: 101, slug: 'drain-cleaning', title: 'Drain Cleaning', verify_json: '' },
    keys.orgA,
  )
  await call<number>('create_content_page', { client_id: plumbers, wp_post_id: 102 }, keys.orgA)
  await call<number>(
    'create_content_page',
    { client_id: heaters, wp_post_id: 101, status: 'published', title: 'Water Heaters', slug: 'water-heaters' },
    keys.orgA,
  )
  const taken = await ts.rpc('create_content_page', { client_id: plumbers, wp_post_id: 101 }, keys.orgA)
  if (taken.statusCode !== 409) throw new Error(`a second page for a post answered ${taken.statusCode}`)
  await call('update_content_page', { page_id: drain, status: 'pending_review' }, keys.orgA)
  await call('update_content_page', { page_id: drain, status: 'published', title: 'Drain Cleaning in Austin' }, keys.orgA)
  await call(
    'update_content_page',
    { page_id: drain, status: 'failed', verify_json: '{"checks":[{"name":"http_200","passed":false}]}' },
    keys.orgA,
  )
  await call('update_content_page', { page_id: drain, status: 'verified', verify_json: verify }, keys.orgA)
  await call('update_content_page', { page_id: drain, status: 'verified', verify_json: verify }, keys.orgA) // the same: no event
  const refused = await ts.rpc('update_content_page', { page_id: drain, status: 'pending_review' }, keys.orgA)
  if (refused.statusCode !== 409) throw new Error(`a refused status move answered ${refused.statusCode}`)
  await call('update_content_page', { page_id: drain, status: 'trashed' }, keys.orgA)
  await call('update_content_page', { page_id: drain, status: 'draft', slug: 'drain-cleaning-austin' }, keys.orgA)
  await call<number>('create_content_page', { client_id: bravo, wp_post_id: 7, title: 'About' }, keys.orgB)
  const foreign = await ts.rpc('update_content_page', { page_id: drain, title: 'Taken over' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign update_content_page answered ${foreign.statusCode}`)
}
