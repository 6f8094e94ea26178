/**
 * Action items, pure: the client-month aggregate (an add per source key once, even after a delete; a closed
 * month refusing new items but not a repeat of a held key; update and status no-ops; completed_at only on
 * done; delete with preserved statuses; a close recording its done hours, once), the action types' defaults and
 * the month after. Then the carry-over through closeActionItemMonth on a real store: unfinished items added
 * to the next month, the close recording the mapping, run again nothing more, and a crash between its two
 * appends repaired without carrying anything twice.
 */
import t from 'tap'
import { systemContext } from '../../commands/command-handler.js'
import { addActionItems, closeActionItemMonth, loadClientMonth, setActionItemStatus } from '../../commands/planning/action-items.js'
import { actionTypeSpec, isAutomatable } from '../../domain/planning/action-items/action-types.js'
import { actionItemsStream, clientMonth, type NewActionItem } from '../../domain/planning/action-items/client-month.js'
import type { ActionItemEvent } from '../../domain/planning/action-items/events.js'
import { monthAfter } from '../../domain/shared/months.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from '../http/helpers.js'
import { spec } from './given-when-then.js'

const CLIENT = 7
const MONTH = '2026-10'
const where = { client_id: CLIENT, month: MONTH }
const NOW = '2026-10-20T10:00:00.000Z'

const newItem = (item_id: number, source_key: string | null, extra: Partial<NewActionItem> = {}): NewActionItem => ({
  item_id,
  action_type: 'title_meta_rewrite',
  page_url: 'https://acme.example/drains',
  description: `Item ${item_id}`,
  tier: 'A',
  hours: 0.5,
  impact: 60,
  source: source_key === null ? { kind: 'person', id: null, by: 'api_key:1' } : { kind: 'insight', id: item_id, by: '' },
  source_key,
  carried_from_item_id: null,
  job_id: null,
  ...extra,
})
const added = (item: NewActionItem): ActionItemEvent => ({ type: 'ActionItemAdded', data: { ...item, ...where } })
const addItems = (...items: NewActionItem[]) => ({ type: 'AddItems' as const, ...where, items })
const statusChanged = (item_id: number, from: string, status: string, completed_at: string | null = null): ActionItemEvent =>
  ({
    type: 'ActionItemStatusChanged',
    data: {
      item_id,
      ...where,
      action_type: 'title_meta_rewrite',
      page_url: 'https://acme.example/drains',
      from,
      status,
      completed_at,
      note: '',
      site_edit_id: null,
    },
  }) as ActionItemEvent
const deleted = (item_id: number): ActionItemEvent => ({ type: 'ActionItemDeleted', data: { item_id, ...where } })
const closed = (carried: { item_id: number; new_item_id: number }[] = [], done_hours = 0): ActionItemEvent => ({
  type: 'ActionItemMonthClosed',
  data: { ...where, next_month: '2026-11', carried, budget_hours: 8, done_hours },
})
const closeMonth = (carried: { item_id: number; new_item_id: number }[] = []) => ({
  type: 'CloseMonth' as const,
  ...where,
  next_month: '2026-11',
  carried,
  budget_hours: 8,
})
const given = spec(clientMonth)

t.test('the stream is the client-month', async (t) => {
  t.equal(actionItemsStream({ clientId: 7, month: '2026-10' }), 'action_items-7-2026-10')
  t.equal(actionItemsStream({ clientId: 7, month: null }), 'action_items-7-none')
})

t.test('one item per source key: adding again, even after a delete, adds nothing', async (t) => {
  const first = newItem(1, 'insight:3')
  given()
    .when(addItems(first))
    .then(t, [added(first)])
  given(added(first))
    .when(addItems(newItem(2, 'insight:3')))
    .thenNothingHappens(t)
  given(added(first), deleted(1))
    .when(addItems(newItem(2, 'insight:3')))
    .thenNothingHappens(t)
  given(added(first))
    .when(addItems(newItem(2, 'insight:3'), newItem(3, 'insight:4')))
    .then(t, [added(newItem(3, 'insight:4'))])
  given()
    .when(addItems(newItem(1, 'insight:5'), newItem(2, 'insight:5')))
    .then(t, [added(newItem(1, 'insight:5'))])
  given(added(newItem(1, null)))
    .when(addItems(newItem(2, null)))
    .then(t, [added(newItem(2, null))])
})

t.test('a closed month refuses new items, but a key it holds is a repeat, not a refusal', async (t) => {
  const first = newItem(1, 'insight:3')
  given(added(first), closed())
    .when(addItems(newItem(2, null)))
    .thenThrows(t, 'action_item_month_closed')
  given(added(first), closed())
    .when(addItems(newItem(2, 'insight:4')))
    .thenThrows(t, 'action_item_month_closed')
  given(added(first), closed())
    .when(addItems(newItem(2, 'insight:3')))
    .thenNothingHappens(t)
})

t.test('update: the fields as they now are; the same values again are nothing', async (t) => {
  const first = newItem(1, 'insight:3')
  given(added(first))
    .when({ type: 'UpdateItem', item_id: 1, fields: { hours: 2, tier: 'B' } })
    .then(t, [
      {
        type: 'ActionItemUpdated',
        data: {
          item_id: 1,
          ...where,
          action_type: 'title_meta_rewrite',
          page_url: 'https://acme.example/drains',
          description: 'Item 1',
          tier: 'B',
          hours: 2,
        },
      },
    ])
  given(added(first))
    .when({ type: 'UpdateItem', item_id: 1, fields: { hours: 0.5 } })
    .thenNothingHappens(t)
  given(added(first), deleted(1))
    .when({ type: 'UpdateItem', item_id: 1, fields: { hours: 3 } })
    .thenThrows(t, 'not_found')
  given()
    .when({ type: 'UpdateItem', item_id: 9, fields: { hours: 3 } })
    .thenThrows(t, 'not_found')
})

t.test('status: completed_at only when done; the same status again is nothing', async (t) => {
  const first = newItem(1, 'insight:3')
  const set = (status: 'pending' | 'in_progress' | 'done' | 'skipped') => ({
    type: 'SetStatus' as const,
    item_id: 1,
    status,
    note: '',
    site_edit_id: null,
    now: NOW,
  })
  given(added(first))
    .when(set('done'))
    .then(t, [statusChanged(1, 'pending', 'done', NOW)])
  given(added(first), statusChanged(1, 'pending', 'done', NOW))
    .when(set('in_progress'))
    .then(t, [statusChanged(1, 'done', 'in_progress')])
  given(added(first)).when(set('pending')).thenNothingHappens(t)
  given(added(first), deleted(1)).when(set('done')).thenThrows(t, 'not_found')
})

t.test('delete: every live item but the preserved statuses', async (t) => {
  const history = [
    added(newItem(1, 'insight:1')),
    added(newItem(2, 'insight:2')),
    added(newItem(3, 'insight:3')),
    added(newItem(4, 'insight:4')),
    statusChanged(1, 'pending', 'done', NOW),
    statusChanged(2, 'pending', 'skipped'),
    deleted(4),
  ]
  given(...history)
    .when({ type: 'DeleteItems', item_ids: 'all', preserve: ['done', 'skipped'] })
    .then(t, [deleted(3)])
  given(...history)
    .when({ type: 'DeleteItems', item_ids: 'all', preserve: [] })
    .then(t, [deleted(1), deleted(2), deleted(3)])
  given(...history)
    .when({ type: 'DeleteItems', item_ids: [4], preserve: [] })
    .thenThrows(t, 'not_found')
})

t.test('close: the done hours recorded once', async (t) => {
  const history = [
    added(newItem(1, 'insight:1', { hours: 1.25 })),
    added(newItem(2, 'insight:2', { hours: 2 })),
    added(newItem(3, 'insight:3')),
    statusChanged(1, 'pending', 'done', NOW),
    statusChanged(2, 'pending', 'done', NOW),
    deleted(2),
  ]
  given(...history)
    .when(closeMonth([{ item_id: 3, new_item_id: 10 }]))
    .then(t, [closed([{ item_id: 3, new_item_id: 10 }], 1.25)])
  given(...history, closed())
    .when(closeMonth())
    .thenNothingHappens(t)
})

t.test('the action types and the month after', async (t) => {
  t.match(actionTypeSpec('redirect'), { tier: 'A', hours: 0.5, automatable: true })
  t.equal(actionTypeSpec('gbp_photos'), undefined, 'free text has no spec')
  t.equal(actionTypeSpec('toString'), undefined, 'not an inherited property')
  t.equal(isAutomatable('improve_content'), false)
  t.equal(monthAfter('2026-11'), '2026-12')
  t.equal(monthAfter('2026-12'), '2027-01')
})

t.test('closeActionItemMonth carries the unfinished items over, once, and survives a crash between its appends', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const orgId = org.orgId
  const write = ts.system.write
  const ctx = systemContext('test')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme'), org.key)
  const october = { clientId, callerOrgId: orgId, month: MONTH }
  const input = (key: string) => {
    const { item_id: _, ...rest } = newItem(1, key)
    return rest
  }
  const { added: ids } = await addActionItems(write, ctx, october, [input('insight:1'), input('insight:2'), input('insight:3')])
  const [done, working, waiting] = ids as [number, number, number]
  await setActionItemStatus(write, ctx, { ...october, itemId: done }, { status: 'done' })
  await setActionItemStatus(write, ctx, { ...october, itemId: working }, { status: 'in_progress' })

  // A crash after the first append: the next month holds one carried item, the old month is still open.
  const early = await addActionItems(write, ctx, { ...october, month: '2026-11' }, [
    {
      ...input('carry'),
      source: { kind: 'carry_over', id: working, by: '' },
      source_key: `carry:${working}`,
      carried_from_item_id: working,
    },
  ])
  const result = await closeActionItemMonth(write, ctx, { ...october, month: MONTH, nextMonth: '2026-11', budgetHours: 8 })
  t.equal(result.closedNow, true)
  t.equal(result.carried.length, 2)
  t.same(
    result.carried.find((c) => c.item_id === working),
    { item_id: working, new_item_id: early.added[0] },
    'the item carried before the crash keeps its id',
  )
  const november = await loadClientMonth(write, clientId, '2026-11')
  t.same(
    [...november.items.values()].map((i) => [i.sourceKey, i.status]),
    [
      [`carry:${working}`, 'pending'],
      [`carry:${waiting}`, 'pending'],
    ],
    'each unfinished item once, pending again',
  )
  const old = await loadClientMonth(write, clientId, MONTH)
  t.equal(old.closed, true)

  const again = await closeActionItemMonth(write, ctx, { ...october, month: MONTH, nextMonth: '2026-11', budgetHours: 8 })
  t.same({ closedNow: again.closedNow, carried: again.carried }, { closedNow: false, carried: [] }, 'closed already: nothing')
  t.equal((await loadClientMonth(write, clientId, '2026-11')).items.size, 2, 'nothing carried twice')
})
