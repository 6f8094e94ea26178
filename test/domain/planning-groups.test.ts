/**
 * Client groups, pure: names (spacing collapsed, unique case-insensitively among live groups), the
 * directory aggregate (create, a retried create, rename, delete, the name freed by a delete) and a group's
 * members (add once, remove, nothing for a deleted group).
 */
import t from 'tap'
import type { GroupDirectoryEvent, GroupMembershipEvent } from '../../domain/planning/groups/events.js'
import { groupDirectory, groupDirectoryStream, liveGroupNamed } from '../../domain/planning/groups/group-directory.js'
import { groupMembers, groupMembersStream } from '../../domain/planning/groups/group-members.js'
import { groupName } from '../../domain/planning/groups/names.js'
import { slotKey } from '../../domain/jobs/slot.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const created = (group_id: number, name: string, description: string | null = null): GroupDirectoryEvent => ({
  type: 'ClientGroupCreated',
  data: { org_id: 4, group_id, name, name_key: name.toLowerCase(), description },
})
const deleted = (group_id: number): GroupDirectoryEvent => ({ type: 'ClientGroupDeleted', data: { org_id: 4, group_id } })
const added = (client_id: number): GroupMembershipEvent => ({ type: 'ClientAddedToGroup', data: { group_id: 9, client_id } })
const removed = (client_id: number): GroupMembershipEvent => ({ type: 'ClientRemovedFromGroup', data: { group_id: 9, client_id } })

t.test('names: spacing collapsed, identity without case, empty and long refused', async (t) => {
  t.same(groupName('  Plumbers,   Texas '), { name: 'Plumbers, Texas', key: 'plumbers, texas' })
  t.throws(() => groupName('   '), { code: 'validation_failed' })
  t.throws(() => groupName('x'.repeat(201)), { code: 'validation_failed' })
  t.equal(groupName('x'.repeat(200)).name.length, 200)
})

t.test('the directory: create, retry, names unique among live groups, rename, delete', async (t) => {
  const given = spec(groupDirectory)
  t.equal(groupDirectoryStream(4), 'client_groups-4')
  const create = (group_id: number, name: string, description: string | null = null) =>
    ({ type: 'CreateGroup', org_id: 4, group_id, name, description }) as const
  given()
    .when(create(1, ' Plumbers ', ' Growth plan '))
    .then(t, [created(1, 'Plumbers', 'Growth plan')])
  given()
    .when(create(1, 'Plumbers', '   '))
    .then(t, [created(1, 'Plumbers')])
  given(created(1, 'Plumbers')).when(create(1, 'Plumbers')).thenNothingHappens(t) // a retried request: its id is there
  given(created(1, 'Plumbers'))
    .when(create(2, 'PLUMBERS'))
    .thenThrows(t, 'client_group_name_taken', { detail: '"PLUMBERS" is client group 1' })
  given(created(1, 'Plumbers'), deleted(1))
    .when(create(2, 'plumbers'))
    .then(t, [created(2, 'plumbers')])

  const rename = (group_id: number, name: string) => ({ type: 'RenameGroup', org_id: 4, group_id, name }) as const
  given(created(1, 'Plumbers'))
    .when(rename(1, 'Roofers'))
    .then(t, [{ type: 'ClientGroupRenamed', data: { org_id: 4, group_id: 1, name: 'Roofers', name_key: 'roofers' } }])
  given(created(1, 'Plumbers')).when(rename(1, ' Plumbers ')).thenNothingHappens(t)
  given(created(1, 'Plumbers'))
    .when(rename(1, 'plumbers'))
    .then(t, [{ type: 'ClientGroupRenamed', data: { org_id: 4, group_id: 1, name: 'plumbers', name_key: 'plumbers' } }])
  given(created(1, 'Plumbers'), created(2, 'Roofers')).when(rename(2, 'plumbers')).thenThrows(t, 'client_group_name_taken')
  given(created(1, 'Plumbers'), deleted(1), created(2, 'Roofers'))
    .when(rename(2, 'Plumbers'))
    .then(t, [{ type: 'ClientGroupRenamed', data: { org_id: 4, group_id: 2, name: 'Plumbers', name_key: 'plumbers' } }])
  given(created(1, 'Plumbers'), deleted(1)).when(rename(1, 'Other')).thenThrows(t, 'client_group_deleted')
  given().when(rename(3, 'Other')).thenThrows(t, 'not_found', { detail: 'client group 3 not found' })

  const del = (group_id: number) => ({ type: 'DeleteGroup', org_id: 4, group_id }) as const
  given(created(1, 'Plumbers'))
    .when(del(1))
    .then(t, [deleted(1)])
  given(created(1, 'Plumbers'), deleted(1)).when(del(1)).thenNothingHappens(t)
  given().when(del(1)).thenThrows(t, 'not_found')

  const state = fold(groupDirectory, [created(1, 'Plumbers'), deleted(1), created(2, 'Plumbers')])
  t.equal(liveGroupNamed(state, ' PLUMBERS')?.id, 2, 'the live one of that name')
  t.equal(groupDirectory.orgOf!(state), 4)
})

t.test("a group's members: added once, removed, nothing for a deleted group", async (t) => {
  const given = spec(groupMembers)
  t.equal(groupMembersStream(9), 'client_group-9')
  const add = (client_ids: number[], group_deleted = false) => ({ type: 'AddClients', group_id: 9, client_ids, group_deleted }) as const
  const remove = (client_id: number, group_deleted = false) => ({ type: 'RemoveClient', group_id: 9, client_id, group_deleted }) as const
  given()
    .when(add([3, 4, 3]))
    .then(t, [added(3), added(4)])
  given(added(3))
    .when(add([3, 5]))
    .then(t, [added(5)])
  given(added(3))
    .when(add([3]))
    .thenNothingHappens(t)
  given(added(3), removed(3))
    .when(add([3]))
    .then(t, [added(3)])
  given(added(3))
    .when(remove(3))
    .then(t, [removed(3)])
  given(added(3)).when(remove(4)).thenNothingHappens(t)
  given()
    .when(add([3], true))
    .thenThrows(t, 'client_group_deleted')
  given(added(3)).when(remove(3, true)).thenThrows(t, 'client_group_deleted')
  t.same(fold(groupMembers, [added(3), added(4), removed(3), added(3)]).clientIds, [4, 3], 'in the order they (last) joined')
})

t.test("a group job's slot is the group's own", async (t) => {
  t.equal(slotKey({ clientId: null, groupId: 9, orgId: 2 }), 'group_9')
  t.equal(slotKey({ clientId: null, groupId: null, orgId: 2 }), 'org_2', 'no group: the organization')
  t.equal(slotKey({ clientId: 7, orgId: 2 }), 'client_7')
})
