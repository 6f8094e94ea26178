import {
  addActionItems,
  closeActionItemMonth,
  deleteActionItems,
  setActionItemStatus,
  updateActionItem,
  type ActionItemInput,
} from '../../../commands/planning/action-items.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

const item = (action_type: string, page_url: string, description: string, source_key: string | null): ActionItemInput => ({
  action_type,
  page_url,
  description,
  tier: 'A',
  hours: 0.5,
  impact: source_key === null ? null : 60,
  source: source_key === null ? { kind: 'person', id: null, by: 'api_key:1' } : { kind: 'insight', id: 3, by: '' },
  source_key,
  carried_from_item_id: null,
  job_id: null,
})

/**
 * The action items part of the realistic log, through the commands: a month of items (one added twice by its
 * source key: nothing more), an update and the same update again (nothing), status changes through every
 * status (done and back), a delete of some with the done ones preserved, the month closed with its unfinished
 * items carried into the next (and closed again: nothing), an item without a month, and the other
 * organization's item.
 */
export async function writeActionItemsLog(ts: TestSystem, log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {
  const write = ts.system.write
  const ctx = { actor: { kind: 'api_key' as const, id: 1 }, requestId: 'realistic', correlationId: 'realistic', causationId: null }
  const [orgA, orgB] = log.orgIds as [number, number]
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const september = { clientId: plumbers, callerOrgId: orgA, month: '2026-09' }
  const { added } = await addActionItems(write, ctx, september, [
    item('title_meta_rewrite', 'https://plumbers.example.com/drains', 'Rewrite the drains page title (CTR 0.4%)', 'insight:3'),
    item('redirect', 'https://plumbers.example.com/old-offer', 'Redirect the retired offer page', 'insight:4'),
    item('manual', '', 'Ask the owner for new team photos', null),
    item('improve_content', 'https://plumbers.example.com/boilers', 'Strengthen the boilers page', 'insight:5'),
  ])
  const [title, redirect, photos, boilers] = added as [number, number, number, number]
  await addActionItems(write, ctx, september, [item('title_meta_rewrite', '', 'again', 'insight:3')]) // held already
  await updateActionItem(write, ctx, { ...september, itemId: boilers }, { hours: 2, tier: 'B' })
  await updateActionItem(write, ctx, { ...september, itemId: boilers }, { hours: 2 }) // unchanged
  await setActionItemStatus(write, ctx, { ...september, itemId: title }, { status: 'in_progress' })
  await setActionItemStatus(write, ctx, { ...september, itemId: title }, { status: 'done', note: 'Applied', siteEditId: 41 })
  await setActionItemStatus(write, ctx, { ...september, itemId: redirect }, { status: 'done' })
  await setActionItemStatus(write, ctx, { ...september, itemId: redirect }, { status: 'pending', note: 'The redirect loops' })
  await setActionItemStatus(write, ctx, { ...september, itemId: photos }, { status: 'skipped', note: 'Owner declined' })
  await deleteActionItems(write, ctx, september, { itemIds: 'all', preserve: ['done', 'skipped', 'in_progress', 'pending'] }) // none
  await deleteActionItems(write, ctx, september, { itemIds: [photos], preserve: [] })
  await closeActionItemMonth(write, ctx, { ...september, nextMonth: '2026-10', budgetHours: 6 })
  await closeActionItemMonth(write, ctx, { ...september, nextMonth: '2026-10', budgetHours: 6 }) // closed already
  const october = { clientId: plumbers, callerOrgId: orgA, month: '2026-10' }
  const next = await addActionItems(write, ctx, october, [
    item('internal_links', 'https://plumbers.example.com/', 'Link the home page', 'insight:6'),
  ])
  await setActionItemStatus(write, ctx, { ...october, itemId: next.added[0]! }, { status: 'in_progress' })
  const unplanned = { clientId: heaters, callerOrgId: orgA, month: null }
  await addActionItems(write, ctx, unplanned, [item('manual', '', 'Someday: a heat pump guide', null)])
  await addActionItems(write, ctx, { clientId: bravo, callerOrgId: orgB, month: '2026-10' }, [
    item('remove_noindex', 'https://bravo.example.com/services', 'Remove the noindex on services', 'insight:9'),
  ])
}
