import type { Aggregate } from '../../shared/aggregate.js'
import { DomainError } from '../../shared/errors.js'
import { assertNever } from '../../shared/values.js'
import type { GroupMembershipEvent } from './events.js'

/**
 * A group's clients: one stream per group, `client_group-<group_id>`. Adding a member twice, or removing
 * one that is not, changes nothing (a retried request). Whether the group is live and the client may join
 * (the organization's, not deleted) is read by the command from the directory and the client's stream and
 * passed in: the directory is a different stream, so a delete landing between that read and this append
 * can leave a member on a just-deleted group, which is harmless (a deleted group is listed nowhere and
 * takes no jobs).
 */
export const groupMembersStream = (groupId: number) => `client_group-${groupId}`

export interface GroupMembersState {
  readonly groupId: number
  /** In the order they joined. */
  readonly clientIds: readonly number[]
}

export type GroupMembersCommand =
  | { type: 'AddClients'; group_id: number; client_ids: readonly number[]; group_deleted: boolean }
  | { type: 'RemoveClient'; group_id: number; client_id: number; group_deleted: boolean }

const initialState = (): GroupMembersState => ({ groupId: 0, clientIds: [] })

export const isMember = (state: GroupMembersState, clientId: number) => state.clientIds.includes(clientId)

function evolve(state: GroupMembersState, event: GroupMembershipEvent): GroupMembersState {
  switch (event.type) {
    case 'ClientAddedToGroup':
      if (isMember(state, event.data.client_id)) return state
      return { groupId: event.data.group_id, clientIds: [...state.clientIds, event.data.client_id] }
    case 'ClientRemovedFromGroup':
      return { groupId: event.data.group_id, clientIds: state.clientIds.filter((id) => id !== event.data.client_id) }
    default:
      return assertNever(event)
  }
}

function refuseDeleted(groupId: number, deleted: boolean): void {
  if (deleted) throw new DomainError('client_group_deleted', 'The client group is deleted', `client group ${groupId}`)
}

function decide(command: GroupMembersCommand, state: GroupMembersState): GroupMembershipEvent[] {
  switch (command.type) {
    case 'AddClients': {
      refuseDeleted(command.group_id, command.group_deleted)
      const added = new Set<number>()
      const events: GroupMembershipEvent[] = []
      for (const clientId of command.client_ids) {
        if (isMember(state, clientId) || added.has(clientId)) continue
        added.add(clientId)
        events.push({ type: 'ClientAddedToGroup', data: { group_id: command.group_id, client_id: clientId } })
      }
      return events
    }
    case 'RemoveClient':
      refuseDeleted(command.group_id, command.group_deleted)
      if (!isMember(state, command.client_id)) return []
      return [{ type: 'ClientRemovedFromGroup', data: { group_id: command.group_id, client_id: command.client_id } }]
    default:
      return assertNever(command)
  }
}

export const groupMembers: Aggregate<GroupMembersState, GroupMembersCommand, GroupMembershipEvent> = {
  streamOf: groupMembersStream,
  initialState,
  evolve,
  decide,
  entity: 'client group',
}
