import { systemContext } from '../../../commands/command-handler.js'
import { addActionItems, type ActionItemInput } from '../../../commands/planning/action-items.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** An item as the strategist raises it (keyed by its insight), through the command (the strategist's path). */
const found = (action_type: string, page_url: string, description: string, insight: number): ActionItemInput => ({
  action_type,
  page_url,
  description,
  tier: 'A',
  hours: 0.5,
  impact: 60,
  source: { kind: 'insight', id: insight, by: '' },
  source_key: `insight:${insight}`,
  carried_from_item_id: null,
  job_id: null,
})

/**
 * The action items part of the realistic log: a month planned by the strategist's command (one finding added
 * twice: nothing more) and by a person through the RPCs; an update and the same update again (nothing);
 * status changes through every status (done and back); a delete, a month's delete with every status preserved
 * (nothing) and one without; the month closed with its unfinished items carried into the next (and closed
 * again: nothing); an item without a month; the other organization's item and a foreign attempt refused.
 */
export async function writeActionItemsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const write = ts.system.write
  const ctx = systemContext('job-realistic') // the strategist's path
  const [orgA] = log.orgIds as [number, number]
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const september = { clientId: plumbers, callerOrgId: orgA, month: '2026-09' }
  const planned = await addActionItems(write, ctx, september, [
    found('title_meta_rewrite', 'https://plumbers.example.com/drains', 'Rewrite the drains page title (CTR 0.4%)', 3),
    found('redirect', 'https://plumbers.example.com/old-offer', 'Redirect the retired offer page', 4),
  ])
  const [title, redirect] = planned.added as [number, number]
  await addActionItems(write, ctx, september, [found('title_meta_rewrite', '', 'Again', 3)]) // held already
  const item = (params: Record<string, unknown>, key = keys.orgA) =>
    call<{ id: number }>('add_action_item', { client_id: plumbers, month: '2026-09', ...params }, key).then((i) => i.id)
  const photos = await item({ action_type: 'manual', description: 'Ask the owner for new team photos' })
  const boilers = await item({
    action_type: 'improve_content',
    page_url: 'https://plumbers.example.com/boilers',
    description: 'Strengthen the boilers page',
  })
  await item({ action_type: 'internal_links', description: 'Link the boilers page', status: 'in_progress' })
  const duplicate = await item({ action_type: 'manual', description: 'A duplicate' })
  await call('update_action_item', { item_id: boilers, hours: 3, tier: 'B' }, keys.orgA)
  await call('update_action_item', { item_id: boilers, hours: 3 }, keys.orgA) // unchanged
  await call('set_action_item_status', { item_id: title, status: 'in_progress' }, keys.orgA)
  await call('set_action_item_status', { item_id: title, status: 'done', note: 'Applied' }, keys.orgA)
  await call('set_action_item_status', { item_id: redirect, status: 'done' }, keys.orgA)
  await call('set_action_item_status', { item_id: redirect, status: 'pending', note: 'The redirect loops' }, keys.orgA)
  await call('set_action_item_status', { item_id: photos, status: 'skipped', note: 'Owner declined' }, keys.orgA)
  await call('set_action_item_status', { item_id: photos, status: 'skipped' }, keys.orgA) // unchanged
  await call('delete_action_item', { item_id: duplicate }, keys.orgA)
  const everyStatus = ['pending', 'in_progress', 'done', 'skipped']
  await call('delete_action_items_for_month', { client_id: plumbers, month: '2026-09', preserve_statuses: everyStatus }, keys.orgA)
  await call('close_action_item_month', { client_id: plumbers, month: '2026-09' }, keys.orgA) // redirect, boilers, started carried
  await call('close_action_item_month', { client_id: plumbers, month: '2026-09' }, keys.orgA) // closed already
  const scratch = await item({ month: '2026-12', action_type: 'manual', description: 'Scratch' })
  await call('set_action_item_status', { item_id: scratch, status: 'done' }, keys.orgA)
  await item({ month: '2026-12', action_type: 'manual', description: 'Scratch too' })
  await call('delete_action_items_for_month', { client_id: plumbers, month: '2026-12', preserve_statuses: ['done'] }, keys.orgA)
  await call('add_action_item', { client_id: heaters, action_type: 'manual', description: 'Someday: a heat pump guide' }, keys.orgA)
  await call(
    'add_action_item',
    { client_id: bravo, month: '2026-10', action_type: 'remove_noindex', description: 'Remove the noindex on services' },
    keys.orgB,
  )
  const foreign = await ts.rpc('set_action_item_status', { item_id: title, status: 'skipped' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign set_action_item_status answered ${foreign.statusCode}`)
}
