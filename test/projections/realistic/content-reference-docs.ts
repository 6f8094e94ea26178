import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The reference-docs part of the realistic log, through HTTP: documents added organization-wide and for a
 * client, a taken title refused, updates of every field (a rescope to the organization and back to a client,
 * the same values again: no event), a delete and a delete again (no event), a document in the other
 * organization and a foreign update refused.
 */
export async function writeReferenceDocsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const voice = await call<{ id: number }>(
    'add_org_reference_doc',
    { kind: 'brand_voice', title: 'House voice', body: 'Plain, warm and short.' },
    keys.orgA,
  )
  const facts = await call<{ id: number }>(
    'add_org_reference_doc',
    { kind: 'service_facts', title: 'Plumbing facts', body: 'Open 24/7 in Austin.', client_id: plumbers },
    keys.orgA,
  )
  await call('add_org_reference_doc', { kind: 'style_guide', title: 'Style', body: 'Sentence case headings.' }, keys.orgA)
  const taken = await ts.rpc('add_org_reference_doc', { kind: 'other', title: 'house  VOICE', body: 'x' }, keys.orgA)
  if (taken.statusCode !== 409) throw new Error(`a taken title answered ${taken.statusCode}`)
  await call('update_org_reference_doc', { doc_id: voice.id, body: 'Plain, warm and short. No jargon.' }, keys.orgA)
  await call('update_org_reference_doc', { doc_id: voice.id, body: 'Plain, warm and short. No jargon.' }, keys.orgA) // the same: no event
  await call('update_org_reference_doc', { doc_id: facts.id, client_id: null, title: 'Shared facts', kind: 'other' }, keys.orgA)
  await call('update_org_reference_doc', { doc_id: facts.id, client_id: heaters, kind: 'service_facts' }, keys.orgA)
  await call('delete_org_reference_doc', { doc_id: facts.id }, keys.orgA)
  const again = await ts.rpc('delete_org_reference_doc', { doc_id: facts.id }, keys.orgA)
  if (again.statusCode !== 404) throw new Error(`deleting a deleted document answered ${again.statusCode}`)
  await call('add_org_reference_doc', { kind: 'brand_voice', title: 'Bravo voice', body: 'Formal.', client_id: bravo }, keys.orgB)
  const foreign = await ts.rpc('update_org_reference_doc', { doc_id: voice.id, title: 'Taken over' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign update_org_reference_doc answered ${foreign.statusCode}`)
}
