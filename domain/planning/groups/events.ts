import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * Client groups (issue 26). A group's life (created, renamed, deleted) is recorded in its organization's
 * directory stream, `client_groups-<org_id>`, because "one live group per name in an organization" is
 * decided against every group of it at once. Its members are recorded in the group's own stream,
 * `client_group-<group_id>`, so adding clients to one group never contends with another group's writes.
 */
export const GROUP_NAME_MAX_LENGTH = 200
export const GROUP_DESCRIPTION_MAX_LENGTH = 2000

const Name = z.string().min(1).max(GROUP_NAME_MAX_LENGTH)

/** create_client_group. `name_key` is groupNameKey(name): the identity names are unique by. */
export const ClientGroupCreated = z.object({
  org_id: Id,
  group_id: Id,
  name: Name,
  name_key: z.string().min(1),
  description: z.string().max(GROUP_DESCRIPTION_MAX_LENGTH).nullable(),
})

/** rename_client_group. */
export const ClientGroupRenamed = z.object({ org_id: Id, group_id: Id, name: Name, name_key: z.string().min(1) })

/** delete_client_group: a soft delete; the id is never reused and its name is free again. */
export const ClientGroupDeleted = z.object({ org_id: Id, group_id: Id })

/** add_client_to_group (or create_client_group's client_ids). */
export const ClientAddedToGroup = z.object({ group_id: Id, client_id: Id })

/** remove_client_from_group. */
export const ClientRemovedFromGroup = z.object({ group_id: Id, client_id: Id })

export const clientGroupsEventSchemas = {
  ClientGroupCreated,
  ClientGroupRenamed,
  ClientGroupDeleted,
  ClientAddedToGroup,
  ClientRemovedFromGroup,
} as const

type Schemas = typeof clientGroupsEventSchemas
export type ClientGroupsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type GroupDirectoryEvent = Extract<ClientGroupsEvent, { type: 'ClientGroupCreated' | 'ClientGroupRenamed' | 'ClientGroupDeleted' }>
export type GroupMembershipEvent = Extract<ClientGroupsEvent, { type: 'ClientAddedToGroup' | 'ClientRemovedFromGroup' }>
