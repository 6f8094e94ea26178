import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError, NotFoundError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { GroupDirectoryEvent } from './events.js'
import { groupName } from './names.js'

/**
 * An organization's client groups: one stream, `client_groups-<org_id>`, holding each group's name and
 * whether it is deleted, so "one live group per name" is decided against them all with one append (no
 * name index to keep in step, no race between two creates). Membership lives in each group's own stream
 * (group-members.ts). Deleted groups stay, marked: ids are never reused, their names are free again.
 */
export const groupDirectoryStream = (orgId: number) => `client_groups-${orgId}`

export interface GroupRecord {
  readonly id: number
  readonly name: string
  readonly nameKey: string
  readonly description: string | null
  readonly deleted: boolean
}

export interface GroupDirectoryState {
  readonly orgId: number
  /** Oldest first. */
  readonly groups: readonly GroupRecord[]
}

export type GroupDirectoryCommand =
  | { type: 'CreateGroup'; org_id: number; group_id: number; name: string; description: string | null }
  | { type: 'RenameGroup'; org_id: number; group_id: number; name: string }
  | { type: 'DeleteGroup'; org_id: number; group_id: number }

const initialState = (): GroupDirectoryState => ({ orgId: 0, groups: [] })

export function findGroup(state: GroupDirectoryState, groupId: number): GroupRecord | undefined {
  return state.groups.find((g) => g.id === groupId)
}

/** The live group called `name` (case and spacing aside), if any. */
export function liveGroupNamed(state: GroupDirectoryState, name: string): GroupRecord | undefined {
  const { key } = groupName(name)
  return state.groups.find((g) => !g.deleted && g.nameKey === key)
}

/** The group, live: not_found when missing (a foreign id reads as missing), client_group_deleted when deleted. */
export function liveGroup(state: GroupDirectoryState, groupId: number): GroupRecord {
  const group = findGroup(state, groupId)
  if (!group) throw new NotFoundError('client group', groupId)
  if (group.deleted) throw new DomainError('client_group_deleted', 'The client group is deleted', `client group ${groupId}`)
  return group
}

function nameTaken(name: string, holder: GroupRecord): never {
  throw new DomainError(
    'client_group_name_taken',
    'Another client group of the organization has this name',
    `"${name}" is client group ${holder.id}`,
  )
}

function patch(state: GroupDirectoryState, id: number, change: (g: GroupRecord) => GroupRecord): GroupDirectoryState {
  return { ...state, groups: state.groups.map((g) => (g.id === id ? change(g) : g)) }
}

function evolve(state: GroupDirectoryState, event: GroupDirectoryEvent): GroupDirectoryState {
  switch (event.type) {
    case 'ClientGroupCreated': {
      const d = event.data
      const record: GroupRecord = { id: d.group_id, name: d.name, nameKey: d.name_key, description: d.description, deleted: false }
      return { orgId: d.org_id, groups: [...state.groups, record] }
    }
    case 'ClientGroupRenamed':
      return patch(state, event.data.group_id, (g) => ({ ...g, name: event.data.name, nameKey: event.data.name_key }))
    case 'ClientGroupDeleted':
      return patch(state, event.data.group_id, (g) => ({ ...g, deleted: true }))
    default:
      return assertNever(event)
  }
}

function decide(command: GroupDirectoryCommand, state: GroupDirectoryState): GroupDirectoryEvent[] {
  switch (command.type) {
    case 'CreateGroup': {
      // The id was allocated for this request: finding it means a retried request already created it.
      if (findGroup(state, command.group_id)) return []
      const { name, key } = groupName(command.name)
      const holder = state.groups.find((g) => !g.deleted && g.nameKey === key)
      if (holder) nameTaken(name, holder)
      const description = command.description?.trim() || null
      return [
        {
          type: 'ClientGroupCreated',
          data: { org_id: command.org_id, group_id: command.group_id, name, name_key: key, description },
        },
      ]
    }
    case 'RenameGroup': {
      const group = liveGroup(state, command.group_id)
      const { name, key } = groupName(command.name)
      if (group.name === name) return [] // renaming to its own name changes nothing
      const holder = state.groups.find((g) => !g.deleted && g.nameKey === key && g.id !== group.id)
      if (holder) nameTaken(name, holder)
      return [{ type: 'ClientGroupRenamed', data: { org_id: command.org_id, group_id: group.id, name, name_key: key } }]
    }
    case 'DeleteGroup': {
      const group = findGroup(state, command.group_id)
      if (!group) throw new NotFoundError('client group', command.group_id)
      if (group.deleted) return [] // deleting again changes nothing (a retried request)
      return [{ type: 'ClientGroupDeleted', data: { org_id: command.org_id, group_id: group.id } }]
    }
    default:
      return assertNever(command)
  }
}

export const groupDirectory: Aggregate<GroupDirectoryState, GroupDirectoryCommand, GroupDirectoryEvent> = {
  streamOf: groupDirectoryStream,
  initialState,
  evolve,
  decide,
  orgOf: (state) => (state.orgId === 0 ? null : state.orgId),
  entity: 'client group directory',
}
