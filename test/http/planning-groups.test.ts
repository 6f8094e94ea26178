/**
 * Client groups through the RPCs: create (with first members), rename, delete (soft), add and remove
 * clients, the four reads, names unique among live groups, the refusals (deleted client, deleted group,
 * another organization's group or client answering like a missing one), and a platform key naming org_id.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme Agency')
  const other = await orgWithKey(ts, 'Other Agency')
  const a = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const b = await ts.call<number>('add_client', clientPayload('Bolt Electric'), org.key)
  const c = await ts.call<number>('add_client', clientPayload('Cedar Roofing'), org.key)
  const foreignClient = await ts.call<number>('add_client', clientPayload('Elsewhere Inc'), other.key)
  return { ts, org, other, a, b, c, foreignClient }
}

t.test('create, read, rename, add, remove and delete a group', async (t) => {
  const { ts, org, a, b, c } = await setup(t)
  const created = await ts.call<any>(
    'create_client_group',
    { name: '  Plumbers,   Texas ', description: 'Growth plan', client_ids: [a, b, a] },
    org.key,
  )
  t.match(created, {
    org_id: org.orgId,
    name: 'Plumbers, Texas',
    description: 'Growth plan',
    member_count: 2,
    active_member_count: 2,
    client_ids: [a, b],
    deleted_at: null,
  })
  const groupId = created.id as number
  t.same(await ts.call('get_client_group', { group_id: groupId }, org.key), created, 'get_client_group answers what create answered')

  const members = await ts.call<any[]>('get_clients_in_group', { group_id: groupId }, org.key)
  t.same(
    members.map((m) => [m.id, m.name, m.status, m.active]),
    [
      [a, 'Acme Plumbing', 'active', true],
      [b, 'Bolt Electric', 'active', true],
    ],
  )
  t.equal(typeof members[0].added_at, 'string')
  t.same(
    (await ts.call<any[]>('get_groups_for_client', { client_id: a }, org.key)).map((g) => g.id),
    [groupId],
  )
  t.same(await ts.call('get_groups_for_client', { client_id: c }, org.key), [])

  // Adding a member again changes nothing; a new one joins at the end.
  const stream = `client_group-${groupId}`
  t.equal((await streamEvents(ts, stream)).length, 2)
  await ts.call('add_client_to_group', { group_id: groupId, client_id: a }, org.key)
  t.equal((await streamEvents(ts, stream)).length, 2, 'adding a member twice records nothing')
  const added = await ts.call<any>('add_client_to_group', { group_id: groupId, client_id: c }, org.key)
  t.same(added.client_ids, [a, b, c])

  const removed = await ts.call<any>('remove_client_from_group', { group_id: groupId, client_id: b }, org.key)
  t.same(removed.client_ids, [a, c])
  await ts.call('remove_client_from_group', { group_id: groupId, client_id: b }, org.key)
  t.equal((await streamEvents(ts, stream)).length, 4, 'removing a non-member records nothing')
  t.same(await ts.call('get_groups_for_client', { client_id: b }, org.key), [])

  const renamed = await ts.call<any>('rename_client_group', { group_id: groupId, name: 'Trades, Texas' }, org.key)
  t.equal(renamed.name, 'Trades, Texas')

  // A paused client stays a member but is not active; active_only counts active clients only.
  await ts.call('set_client_status', { client_id: a, status: 'paused' }, org.key)
  await ts.call('set_client_status', { client_id: c, status: 'paused' }, org.key)
  t.match(await ts.call('get_client_group', { group_id: groupId }, org.key), { member_count: 2, active_member_count: 0 })
  t.same(
    (await ts.call<any[]>('get_clients_in_group', { group_id: groupId }, org.key)).map((m) => m.active),
    [false, false],
  )
  t.same(
    (await ts.call<any[]>('get_all_client_groups', {}, org.key)).map((g) => g.id),
    [groupId],
  )
  t.same(await ts.call('get_all_client_groups', { active_only: true }, org.key), [], 'no active client: not active')
  await ts.call('set_client_status', { client_id: c, status: 'active' }, org.key)
  t.same(
    (await ts.call<any[]>('get_all_client_groups', { active_only: true }, org.key)).map((g) => g.id),
    [groupId],
  )

  // A deleted client cannot join.
  await ts.call('set_client_status', { client_id: b, status: 'deleted' }, org.key)
  expectError(t, await ts.rpc('add_client_to_group', { group_id: groupId, client_id: b }, org.key), 409, 'client_deleted')
  expectError(t, await ts.rpc('create_client_group', { name: 'With a deleted one', client_ids: [c, b] }, org.key), 409, 'client_deleted')
  t.same(
    (await ts.call<any[]>('get_all_client_groups', {}, org.key)).map((g) => g.name),
    ['Trades, Texas'],
    'a refused create leaves no group behind',
  )

  // Delete: soft, listed nowhere, takes no changes, answered by get_client_group; deleting again changes nothing.
  const deleted = await ts.call<any>('delete_client_group', { group_id: groupId }, org.key)
  t.equal(typeof deleted.deleted_at, 'string')
  t.same(await ts.call('delete_client_group', { group_id: groupId }, org.key), deleted, 'deleting again changes nothing')
  t.same(await ts.call('get_all_client_groups', {}, org.key), [])
  t.same(await ts.call('get_groups_for_client', { client_id: c }, org.key), [])
  t.same(await ts.call('get_client_group', { group_id: groupId }, org.key), deleted)
  expectError(t, await ts.rpc('add_client_to_group', { group_id: groupId, client_id: c }, org.key), 409, 'client_group_deleted')
  expectError(t, await ts.rpc('remove_client_from_group', { group_id: groupId, client_id: c }, org.key), 409, 'client_group_deleted')
  expectError(t, await ts.rpc('rename_client_group', { group_id: groupId, name: 'Back' }, org.key), 409, 'client_group_deleted')
})

t.test('names are unique among live groups of an organization, case and spacing aside', async (t) => {
  const { ts, org, other, a } = await setup(t)
  const first = await ts.call<any>('create_client_group', { name: 'Plumbers' }, org.key)
  t.same(first.client_ids, [])
  expectError(t, await ts.rpc('create_client_group', { name: ' plumbers ' }, org.key), 409, 'client_group_name_taken')
  const second = await ts.call<any>('create_client_group', { name: 'Roofers', client_ids: [a] }, org.key)
  expectError(t, await ts.rpc('rename_client_group', { group_id: second.id, name: 'PLUMBERS' }, org.key), 409, 'client_group_name_taken')
  t.equal(
    (await ts.call<any>('rename_client_group', { group_id: first.id, name: 'plumbers' }, org.key)).name,
    'plumbers',
    'a group may change its own case',
  )
  // Another organization has its own names.
  t.ok((await ts.call<any>('create_client_group', { name: 'Plumbers' }, other.key)).id)
  // Deleting frees the name; the new group has a new id.
  await ts.call('delete_client_group', { group_id: first.id }, org.key)
  const again = await ts.call<any>('create_client_group', { name: 'Plumbers' }, org.key)
  t.not(again.id, first.id)
  t.same(
    (await ts.call<any[]>('get_all_client_groups', {}, org.key)).map((g) => g.name),
    ['Plumbers', 'Roofers'],
    'by name',
  )
  expectError(t, await ts.rpc('create_client_group', { name: '   ' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('create_client_group', { name: 'x', unknown: 1 }, org.key), 400, 'validation_failed')
})

t.test("another organization's group or client answers like a missing one", async (t) => {
  const { ts, org, other, a, foreignClient } = await setup(t)
  const foreignGroup = (await ts.call<any>('create_client_group', { name: 'Theirs', client_ids: [foreignClient] }, other.key)).id as number
  const mine = (await ts.call<any>('create_client_group', { name: 'Mine', client_ids: [a] }, org.key)).id as number
  const missing = 987654
  const byGroup: [string, Record<string, unknown>][] = [
    ['get_client_group', {}],
    ['get_clients_in_group', {}],
    ['rename_client_group', { name: 'Taken over' }],
    ['delete_client_group', {}],
    ['add_client_to_group', { client_id: a }],
    ['remove_client_from_group', { client_id: a }],
  ]
  for (const [method, extra] of byGroup) {
    const foreign = expectError(
      t,
      await ts.rpc(method, { group_id: foreignGroup, ...extra }, org.key),
      404,
      'not_found',
      `${method} foreign`,
    )
    const absent = expectError(t, await ts.rpc(method, { group_id: missing, ...extra }, org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(foreign, [foreignGroup]), withoutIds(absent, [missing]), `${method}: foreign reads as missing`)
  }
  for (const method of ['add_client_to_group', 'remove_client_from_group']) {
    const foreign = expectError(
      t,
      await ts.rpc(method, { group_id: mine, client_id: foreignClient }, org.key),
      404,
      'not_found',
      `${method} foreign client`,
    )
    const absent = expectError(
      t,
      await ts.rpc(method, { group_id: mine, client_id: missing }, org.key),
      404,
      'not_found',
      `${method} missing client`,
    )
    t.same(withoutIds(foreign, [foreignClient]), withoutIds(absent, [missing]))
  }
  expectError(t, await ts.rpc('create_client_group', { name: 'Mixed', client_ids: [a, foreignClient] }, org.key), 404, 'not_found')
  expectError(t, await ts.rpc('get_groups_for_client', { client_id: foreignClient }, org.key), 404, 'not_found')
  t.same(
    (await ts.call<any[]>('get_all_client_groups', {}, org.key)).map((g) => g.name),
    ['Mine'],
    "only the caller's groups",
  )
  t.same((await ts.call<any>('get_client_group', { group_id: foreignGroup }, other.key)).client_ids, [foreignClient], 'untouched')
})

t.test('a platform key names the organization with org_id', async (t) => {
  const { ts, org, a } = await setup(t)
  expectError(t, await ts.rpc('create_client_group', { name: 'No org' }, ts.platformKey), 400, 'org_id_required')
  const created = await ts.call<any>('create_client_group', { name: 'By platform', client_ids: [a], org_id: org.orgId }, ts.platformKey)
  t.equal(created.org_id, org.orgId)
  t.same(
    (await ts.call<any[]>('get_all_client_groups', { org_id: org.orgId }, ts.platformKey)).map((g) => g.id),
    [created.id],
  )
  t.same(
    (await ts.call<any[]>('get_all_client_groups', {}, org.key)).map((g) => g.id),
    [created.id],
  )
})
