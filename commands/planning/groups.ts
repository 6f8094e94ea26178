import { assertVisible } from '../../domain/clients/client.js'
import {
  findGroup,
  groupDirectory,
  type GroupDirectoryState,
  type GroupRecord,
  liveGroup,
  liveGroupNamed,
} from '../../domain/planning/groups/group-directory.js'
import { groupMembers, type GroupMembersState } from '../../domain/planning/groups/group-members.js'
import { NotFoundError } from '../../domain/shared/errors.js'
import { writableClient } from '../aeo/capture-facts.js'
import { loadClient } from '../clients.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

/** The organization's groups, folded from its directory stream (consistent with the last write). */
export function loadGroupDirectory(deps: Pick<WriteDeps, 'store'>, orgId: number): Promise<GroupDirectoryState> {
  return loadState(deps.store, groupDirectory, orgId)
}

/** The group's members, folded from its stream. */
export function loadGroupMembers(deps: Pick<WriteDeps, 'store'>, groupId: number): Promise<GroupMembersState> {
  return loadState(deps.store, groupMembers, groupId)
}

/** Clients a group may take: the organization's, not deleted (each checked against its own stream). */
async function joinableClients(deps: WriteDeps, orgId: number, clientIds: readonly number[]): Promise<number[]> {
  const unique = [...new Set(clientIds)]
  for (const clientId of unique) await writableClient(deps.store, clientId, orgId)
  return unique
}

async function addMembers(
  deps: WriteDeps,
  context: CommandContext,
  orgId: number,
  group: GroupRecord,
  clientIds: readonly number[],
): Promise<{ added: number; position: Position | null }> {
  if (clientIds.length === 0) return { added: 0, position: null }
  const outcome = await handleCommand(deps, {
    aggregate: groupMembers,
    id: group.id,
    command: { type: 'AddClients', group_id: group.id, client_ids: clientIds, group_deleted: group.deleted },
    context,
    orgId,
  })
  return { added: outcome.events.length, position: outcome.position }
}

/**
 * create_client_group: a new group named `name` (unique among the organization's live groups, case and
 * spacing aside: client_group_name_taken otherwise), with `clientIds` as its first members. The clients
 * are checked before anything is written, so a foreign or deleted one leaves no group behind. Two appends
 * (the directory, then the members): a crash between them leaves the group without its members, which
 * add_client_to_group completes.
 */
export async function createClientGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; name: string; description?: string | null; clientIds?: readonly number[] },
): Promise<{ groupId: number; position: Position | null }> {
  const clientIds = await joinableClients(deps, input.orgId, input.clientIds ?? [])
  const groupId = await deps.ids.next('client_group')
  const created = await handleCommand(deps, {
    aggregate: groupDirectory,
    id: input.orgId,
    command: { type: 'CreateGroup', org_id: input.orgId, group_id: groupId, name: input.name, description: input.description ?? null },
    context,
    orgId: input.orgId,
  })
  const group = findGroup(created.state, groupId)!
  const members = await addMembers(deps, context, input.orgId, group, clientIds)
  // The members were appended after the group: their position, when any, is the later one.
  return { groupId, position: members.position ?? created.position }
}

/** rename_client_group: to a name no other live group of the organization has; its own name changes nothing. */
export async function renameClientGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; groupId: number; name: string },
): Promise<{ renamed: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: groupDirectory,
    id: input.orgId,
    command: { type: 'RenameGroup', org_id: input.orgId, group_id: input.groupId, name: input.name },
    context,
    orgId: input.orgId,
  })
  return { renamed: outcome.events.length > 0, position: outcome.position }
}

/** delete_client_group: a soft delete (the id stays taken, the name is free again); deleting again changes nothing. */
export async function deleteClientGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; groupId: number },
): Promise<{ deleted: boolean; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: groupDirectory,
    id: input.orgId,
    command: { type: 'DeleteGroup', org_id: input.orgId, group_id: input.groupId },
    context,
    orgId: input.orgId,
  })
  return { deleted: outcome.events.length > 0, position: outcome.position }
}

/**
 * add_client_to_group: the organization's live group takes the organization's client unless it is deleted
 * (client_deleted) or already a member (nothing changes).
 */
export async function addClientToGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; groupId: number; clientId: number },
): Promise<{ added: boolean; position: Position | null }> {
  const group = liveGroup(await loadGroupDirectory(deps, input.orgId), input.groupId)
  const clientIds = await joinableClients(deps, input.orgId, [input.clientId])
  const outcome = await addMembers(deps, context, input.orgId, group, clientIds)
  return { added: outcome.added > 0, position: outcome.position }
}

/** remove_client_from_group: the client (of the organization, deleted or not) leaves the live group; a non-member changes nothing. */
export async function removeClientFromGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; groupId: number; clientId: number },
): Promise<{ removed: boolean; position: Position | null }> {
  const group = liveGroup(await loadGroupDirectory(deps, input.orgId), input.groupId)
  assertVisible(await loadClient(deps.store, input.clientId), input.orgId, input.clientId)
  const outcome = await handleCommand(deps, {
    aggregate: groupMembers,
    id: group.id,
    command: { type: 'RemoveClient', group_id: group.id, client_id: input.clientId, group_deleted: group.deleted },
    context,
    orgId: input.orgId,
  })
  return { removed: outcome.events.length > 0, position: outcome.position }
}

/**
 * The organization's live group called `name`, created when there is none, with `clientIds` added: what
 * a fixture (the sandbox seed) uses to find its group again after a reset instead of adding another.
 */
export async function ensureClientGroup(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; name: string; description?: string | null; clientIds: readonly number[] },
): Promise<{ groupId: number; position: Position | null }> {
  const existing = liveGroupNamed(await loadGroupDirectory(deps, input.orgId), input.name)
  if (!existing) return createClientGroup(deps, context, input)
  const clientIds = await joinableClients(deps, input.orgId, input.clientIds)
  const members = await addMembers(deps, context, input.orgId, existing, clientIds)
  return { groupId: existing.id, position: members.position }
}

/** The group if it is the organization's (deleted or not); not_found otherwise. */
export async function groupOfOrg(deps: Pick<WriteDeps, 'store'>, orgId: number, groupId: number): Promise<GroupRecord> {
  const group = findGroup(await loadGroupDirectory(deps, orgId), groupId)
  if (!group) throw new NotFoundError('client group', groupId)
  return group
}
