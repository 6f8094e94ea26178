/**
 * Action items through the RPCs, on a hand-moved clock: add (defaults from the action type, a status from the
 * start, no month), update, status changes (completed_at set on done, cleared after), find, the list filters
 * and pages, the month summaries, deletes (one, a month's with preserved statuses), a month's close carrying
 * its unfinished items over (and again: nothing), a closed month refusing new items; the validation refusals;
 * another organization's client and item answering like missing ones; and a registered webhook receiving a
 * signed action_item.status_changed delivery.
 */
import t from 'tap'
import { setHourBudget } from '../../commands/planning/cycles.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents } from './helpers.js'
import { eventually, handClock, LOOPBACK_ALLOWED, startReceiver, TEST_SERVICE_KEY, verifySignature } from './webhooks-helpers.js'

const START = '2026-11-14T09:00:00.000Z'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const clock = handClock(START)
  const ts = await startTestSystem(t, { clock: clock.now })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const otherClientId = await ts.call<number>('add_client', clientPayload('Other Roofing'), other.key)
  return { clock, ts, org, other, clientId, otherClientId }
}

t.test('add, update, set status, find and list', async (t) => {
  const { clock, ts, org, clientId } = await setup(t)
  const add = (params: Record<string, unknown>) => ts.call<any>('add_action_item', { client_id: clientId, ...params }, org.key)

  const title = await add({
    month: '2026-11',
    action_type: 'title_meta_rewrite',
    page_url: 'https://acme-plumbing.example.com/drains',
    description: 'Rewrite the Drain Cleaning title',
  })
  t.same(title, {
    id: title.id,
    client_id: clientId,
    month: '2026-11',
    action_type: 'title_meta_rewrite',
    page_url: 'https://acme-plumbing.example.com/drains',
    description: 'Rewrite the Drain Cleaning title',
    status: 'pending',
    tier: 'A',
    hours: 0.5,
    impact: null,
    source: { kind: 'person', id: null, by: `api_key:${org.keyId}` },
    carried_from_item_id: null,
    carried_to_item_id: null,
    job_id: null,
    site_edit_id: null,
    note: '',
    completed_at: null,
    created_at: START,
    updated_at: START,
  })
  const photos = await add({ month: '2026-11', action_type: 'gbp_photos', description: 'Ask for team photos' })
  t.match(photos, { tier: 'B', hours: 1, page_url: '' }, 'an unknown action type: B and 1 hour')
  const reviews = await add({
    month: '2026-11',
    action_type: 'reviews',
    description: 'Reply to the new reviews',
    tier: 'C',
    hours: 3,
    status: 'in_progress',
  })
  t.match(reviews, { tier: 'C', hours: 3, status: 'in_progress' }, 'tier, hours and a status from the start')
  const someday = await add({ action_type: 'manual', description: 'A heat pump guide, some day' })
  t.equal(someday.month, null, 'no month')
  t.equal((await add({ month: '', action_type: 'manual', description: 'Empty month' })).month, null, "'' is no month")
  t.same(await ts.call('get_action_item', { item_id: title.id }, org.key), title)

  clock.advance(60_000)
  const updated = await ts.call<any>('update_action_item', { item_id: photos.id, hours: 2, description: 'Ask for staff photos' }, org.key)
  t.match(updated, { hours: 2, description: 'Ask for staff photos', tier: 'B', updated_at: '2026-11-14T09:01:00.000Z' })
  const stream = `action_items-${clientId}-2026-11`
  const before = (await streamEvents(ts, stream)).length
  await ts.call('update_action_item', { item_id: photos.id, hours: 2 }, org.key)
  t.equal((await streamEvents(ts, stream)).length, before, 'the same values again: no event')

  clock.advance(60_000)
  const done = await ts.call<any>('set_action_item_status', { item_id: title.id, status: 'done', note: 'Rewritten' }, org.key)
  t.match(done, { status: 'done', note: 'Rewritten', completed_at: '2026-11-14T09:02:00.000Z' })
  await ts.call('set_action_item_status', { item_id: title.id, status: 'done', note: 'Again' }, org.key)
  t.equal((await ts.call<any>('get_action_item', { item_id: title.id }, org.key)).note, 'Rewritten', 'the same status again: nothing')
  const reopened = await ts.call<any>('set_action_item_status', { item_id: reviews.id, status: 'done' }, org.key)
  t.equal(reopened.completed_at, '2026-11-14T09:02:00.000Z')
  clock.advance(86_400_000)
  t.match(await ts.call('set_action_item_status', { item_id: reviews.id, status: 'pending' }, org.key), { completed_at: null })
  await ts.call('set_action_item_status', { item_id: photos.id, status: 'skipped', note: 'No photographer' }, org.key)

  // find_action_item_id
  const find = (params: Record<string, unknown>) =>
    ts.call('find_action_item_id', { client_id: clientId, month: '2026-11', ...params }, org.key)
  t.equal(await find({ action_type: 'title_meta_rewrite' }), title.id)
  t.equal(await find({ action_type: 'title_meta_rewrite', description_contains: 'drain CLEANING' }), title.id, 'any case')
  t.equal(await find({ action_type: 'title_meta_rewrite', page_url: 'https://acme-plumbing.example.com/drains' }), title.id)
  t.equal(await find({ action_type: 'title_meta_rewrite', page_url: 'https://acme-plumbing.example.com/' }), null)
  t.equal(await find({ action_type: 'title_meta_rewrite', description_contains: '100%_' }), null, 'no wildcards')
  t.equal(await find({ action_type: 'manual', month: null }), someday.id, 'items without a month')
  t.equal(await find({ action_type: 'title_meta_rewrite', month: '2026-10' }), null)

  // get_action_items
  const ids = async (params: Record<string, unknown>) =>
    (await ts.call<any[]>('get_action_items', { client_id: clientId, ...params }, org.key)).map((i) => i.id)
  const noMonth = [someday.id, someday.id + 1]
  t.same(await ids({}), [...noMonth, title.id, photos.id, reviews.id], 'every month, those without one first')
  t.same(await ids({ month: '2026-11' }), [title.id, photos.id, reviews.id])
  t.same(await ids({ month: '2026-11', include_null_month: true }), [...noMonth, title.id, photos.id, reviews.id])
  t.same(await ids({ month: null }), noMonth)
  t.same(await ids({ status: 'done' }), [title.id])
  t.same(await ids({ status: ['done', 'skipped'] }), [title.id, photos.id])
  t.same(await ids({ action_type: 'reviews' }), [reviews.id])
  t.same(await ids({ completed_between: ['2026-11-14', '2026-11-14'] }), [title.id])
  t.same(await ids({ completed_between: { start: '2026-11-01', end: '2026-11-13' } }), [])
  t.same(await ids({ limit: 2, offset: 1 }), [noMonth[1], title.id], 'paginated')

  // months
  const months = await ts.call<any[]>('list_action_item_months_for_client', { client_id: clientId }, org.key)
  t.same(months, [{ month: '2026-11', items: 3, pending: 1, in_progress: 0, done: 1, skipped: 1, hours: 5.5, done_hours: 0.5, closed: 0 }])
  t.same(await ts.call('list_action_item_months_for_org', {}, org.key), months, 'one client: the same counts')

  // list_action_items_for_org_filtered
  const orgIds = async (params: Record<string, unknown>) =>
    (await ts.call<any[]>('list_action_items_for_org_filtered', params, org.key)).map((i) => i.id)
  t.same(await orgIds({ completed_at_present: true }), [title.id])
  t.same(await orgIds({ month: '2026-11', completed_at_present: false }), [photos.id, reviews.id])
  t.same(await orgIds({ completed_since: '2026-11-14' }), [title.id])
  t.same(await orgIds({ completed_since: '2026-11-14T09:02:00.001Z' }), [])
  t.same(await orgIds({ status: 'pending', month: null }), noMonth)
})

t.test('deletes, a month closed with its carry-over, a closed month refusing items', async (t) => {
  const { clock, ts, org, clientId } = await setup(t)
  const add = (month: string, action_type: string, description: string) =>
    ts.call<any>('add_action_item', { client_id: clientId, month, action_type, description }, org.key)
  const done = await add('2026-10', 'redirect', 'Redirect the old offer page')
  const skipped = await add('2026-10', 'manual', 'Call the owner')
  const pending = await add('2026-10', 'improve_content', 'Strengthen the boilers page')
  const working = await add('2026-10', 'internal_links', 'Link the drains page')
  const gone = await add('2026-10', 'manual', 'A duplicate')
  await ts.call('set_action_item_status', { item_id: done.id, status: 'done' }, org.key)
  await ts.call('set_action_item_status', { item_id: skipped.id, status: 'skipped' }, org.key)
  await ts.call('set_action_item_status', { item_id: working.id, status: 'in_progress' }, org.key)

  t.same(await ts.call('delete_action_item', { item_id: gone.id }, org.key), { item_id: gone.id, deleted: true })
  expectError(t, await ts.rpc('get_action_item', { item_id: gone.id }, org.key), 404, 'not_found', 'a deleted item')
  expectError(t, await ts.rpc('delete_action_item', { item_id: gone.id }, org.key), 404, 'not_found', 'deleted again')

  const everyStatus = ['pending', 'in_progress', 'done', 'skipped']
  t.same(
    await ts.call('delete_action_items_for_month', { client_id: clientId, month: '2026-10', preserve_statuses: everyStatus }, org.key),
    { deleted: 0 },
  )
  const scratch = await add('2026-12', 'manual', 'Scratch')
  await add('2026-12', 'manual', 'Scratch too')
  await ts.call('set_action_item_status', { item_id: scratch.id, status: 'done' }, org.key)
  t.same(
    await ts.call('delete_action_items_for_month', { client_id: clientId, month: '2026-12', preserve_statuses: ['done'] }, org.key),
    { deleted: 1 },
    'the done one kept',
  )
  t.same(await ts.call('delete_action_items_for_month', { client_id: clientId, month: '2026-12' }, org.key), { deleted: 1 }, 'default: all')
  t.same(
    await ts.call('delete_action_items_for_month', { client_id: clientId, month: '2026-09' }, org.key),
    { deleted: 0 },
    'an empty month',
  )

  await setHourBudget(
    ts.system.write,
    { actor: { kind: 'system', id: 'test' }, requestId: null, correlationId: 'test', causationId: null },
    {
      clientId,
      callerOrgId: org.orgId,
      fromMonth: '2026-01',
      hours: 8,
    },
  )
  clock.advance(3_600_000)
  const closed = await ts.call<any>('close_action_item_month', { client_id: clientId, month: '2026-10' }, org.key)
  t.equal(closed.carried.length, 2)
  const [carriedPending, carriedWorking] = closed.carried as [any, any]
  t.same(closed, {
    client_id: clientId,
    month: '2026-10',
    next_month: '2026-11',
    carried: [
      { item_id: pending.id, new_item_id: carriedPending.new_item_id },
      { item_id: working.id, new_item_id: carriedWorking.new_item_id },
    ],
    closed_now: true,
    budget_hours: 8,
    done_hours: 0.5,
    closed_at: '2026-11-14T10:00:00.000Z',
  })
  t.match(await ts.call('get_action_item', { item_id: pending.id }, org.key), {
    carried_to_item_id: carriedPending.new_item_id,
    status: 'pending',
  })
  t.match(await ts.call('get_action_item', { item_id: carriedWorking.new_item_id }, org.key), {
    month: '2026-11',
    action_type: 'internal_links',
    description: 'Link the drains page',
    status: 'pending',
    source: { kind: 'carry_over', id: working.id, by: '' },
    carried_from_item_id: working.id,
  })
  const again = await ts.call<any>('close_action_item_month', { client_id: clientId, month: '2026-10' }, org.key)
  t.match(again, { closed_now: false, carried: closed.carried, closed_at: closed.closed_at }, 'closed again: nothing changes')
  t.same(
    (await ts.call<any[]>('get_action_items', { client_id: clientId, month: '2026-11' }, org.key)).map((i) => i.id),
    [carriedPending.new_item_id, carriedWorking.new_item_id],
    'carried once',
  )
  expectError(
    t,
    await ts.rpc('add_action_item', { client_id: clientId, month: '2026-10', action_type: 'manual', description: 'Late' }, org.key),
    409,
    'action_item_month_closed',
  )
  const months = await ts.call<any[]>('list_action_item_months_for_client', { client_id: clientId }, org.key)
  t.same(
    months.map((m) => [m.month, m.items, m.closed]),
    [
      ['2026-11', 2, 0],
      ['2026-10', 4, 1],
    ],
  )
  const explicit = await ts.call<any>('close_action_item_month', { client_id: clientId, month: '2026-12', next_month: '2027-02' }, org.key)
  t.match(explicit, { next_month: '2027-02', carried: [], closed_now: true, done_hours: 0 }, 'an emptied month closes too')
  const listed = await ts.call<any[]>('list_action_item_months_for_client', { client_id: clientId }, org.key)
  t.same(
    listed[0],
    { month: '2026-12', items: 0, pending: 0, in_progress: 0, done: 0, skipped: 0, hours: 0, done_hours: 0, closed: 1 },
    'listed once closed',
  )
})

t.test('validation refusals', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const item = await ts.call<any>(
    'add_action_item',
    { client_id: clientId, month: '2026-11', action_type: 'manual', description: 'Something' },
    org.key,
  )
  const refused = async (method: string, params: Record<string, unknown>, what: string) =>
    expectError(t, await ts.rpc(method, params, org.key), 400, 'validation_failed', what)
  const base = { client_id: clientId, action_type: 'manual', description: 'x' }
  await refused('add_action_item', { ...base, month: '2026-13' }, 'a month that is none')
  await refused('add_action_item', { ...base, description: '  ' }, 'an empty description')
  await refused('add_action_item', { ...base, action_type: '' }, 'an empty action type')
  await refused('add_action_item', { ...base, tier: 'D' }, 'an unknown tier')
  await refused('add_action_item', { ...base, hours: -1 }, 'negative hours')
  await refused('add_action_item', { ...base, colour: 'red' }, 'an unknown parameter')
  await refused('set_action_item_status', { item_id: item.id, status: 'finished' }, 'an unknown status')
  await refused('update_action_item', { item_id: item.id, hours: 5000 }, 'too many hours')
  await refused(
    'delete_action_items_for_month',
    { client_id: clientId, month: '2026-11', preserve_statuses: ['kept'] },
    'an unknown status',
  )
  await refused('delete_action_items_for_month', { client_id: clientId }, 'month is required')
  await refused('close_action_item_month', { client_id: clientId, month: '2026-11', next_month: '2026-11' }, 'next_month not after month')
  await refused('get_action_items', { client_id: clientId, completed_between: ['2026-11-01'] }, 'a range of one day')
  await refused('get_action_items', { client_id: clientId, completed_between: { start: '2026-11-01' } }, 'a range without its end')
  await refused('get_action_items', { client_id: clientId, limit: 5000 }, 'over the page limit')
  await refused('list_action_items_for_org_filtered', { completed_since: 'yesterday' }, 'not a day or an instant')
  await refused('find_action_item_id', { client_id: clientId, action_type: 'manual' }, 'month is required')
  t.same(await ts.call('get_action_items', { client_id: clientId }, org.key), [item], 'nothing else was written')
})

t.test("another organization's client and item answer like missing ones", async (t) => {
  const { ts, org, other, otherClientId } = await setup(t)
  const theirs = await ts.call<any>(
    'add_action_item',
    { client_id: otherClientId, month: '2026-11', action_type: 'manual', description: 'Theirs' },
    other.key,
  )
  const calls: [string, Record<string, unknown>][] = [
    ['add_action_item', { client_id: otherClientId, action_type: 'manual', description: 'Mine now' }],
    ['update_action_item', { item_id: theirs.id, hours: 3 }],
    ['set_action_item_status', { item_id: theirs.id, status: 'done' }],
    ['delete_action_item', { item_id: theirs.id }],
    ['delete_action_items_for_month', { client_id: otherClientId, month: '2026-11' }],
    ['close_action_item_month', { client_id: otherClientId, month: '2026-11' }],
    ['find_action_item_id', { client_id: otherClientId, month: '2026-11', action_type: 'manual' }],
    ['get_action_item', { item_id: theirs.id }],
    ['get_action_items', { client_id: otherClientId }],
    ['list_action_item_months_for_client', { client_id: otherClientId }],
  ]
  for (const [method, params] of calls) {
    const foreign = expectError(t, await ts.rpc(method, params, org.key), 404, 'not_found', method)
    const missing = await ts.rpc(method, { ...params, ...('item_id' in params ? { item_id: 999_999 } : { client_id: 999_999 }) }, org.key)
    t.equal(missing.statusCode, 404, `${method}: a missing id answers 404 too`)
    t.equal(
      foreign.detail?.replace(String(theirs.id), '<id>').replace(String(otherClientId), '<id>'),
      (missing.json() as any).detail?.replace('999999', '<id>'),
      `${method}: the same detail`,
    )
  }
  t.same(await ts.call('list_action_item_months_for_org', {}, org.key), [], "the other organization's months are not listed")
  t.same(await ts.call('list_action_items_for_org_filtered', {}, org.key), [])
  t.same(await ts.call<any>('get_action_item', { item_id: theirs.id }, other.key), theirs, 'the owner still sees it unchanged')
})

t.test('a registered webhook receives a signed action_item.status_changed delivery', async (t) => {
  const clock = handClock(START)
  const ts = await startTestSystem(t, {
    clock: clock.now,
    runProcessors: true,
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, pollMs: 20 },
  })
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const receiver = await startReceiver(t)
  const hook = await ts.call<any>('register_webhook', { url: receiver.url(), events: ['action_item.status_changed'] }, org.key)
  const item = await ts.call<any>(
    'add_action_item',
    {
      client_id: clientId,
      month: '2026-11',
      action_type: 'redirect',
      page_url: 'https://acme-plumbing.example.com/old',
      description: 'Redirect the old page',
    },
    org.key,
  )
  await ts.call('set_action_item_status', { item_id: item.id, status: 'done', note: 'Done by hand' }, org.key)
  const [request] = await eventually(async () => receiver.received.length >= 1 && receiver.received, 'the delivery')
  t.equal(request!.headers['x-service-event'], 'action_item.status_changed')
  t.ok(verifySignature(hook.secret, request!, Math.floor(clock.now().getTime() / 1000)), 'the signature verifies')
  t.notOk(verifySignature('whsec_wrong', request!, Math.floor(clock.now().getTime() / 1000)), 'and not with another secret')
  t.match(request!.body, {
    event: 'action_item.status_changed',
    org_id: org.orgId,
    client_id: clientId,
    data: {
      item_id: item.id,
      month: '2026-11',
      action_type: 'redirect',
      page_url: 'https://acme-plumbing.example.com/old',
      from: 'pending',
      status: 'done',
      completed_at: START,
    },
  })
  t.equal(receiver.received.length, 1, 'adding the item sent nothing: only its status change')
})
