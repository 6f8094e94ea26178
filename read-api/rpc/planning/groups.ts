import { z } from 'zod'
import {
  addClientToGroup,
  createClientGroup,
  deleteClientGroup,
  removeClientFromGroup,
  renameClientGroup,
} from '../../../commands/planning/groups.js'
import { ClientStatus } from '../../../domain/clients/values.js'
import { GROUP_DESCRIPTION_MAX_LENGTH, GROUP_NAME_MAX_LENGTH } from '../../../domain/planning/groups/events.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import {
  type ClientGroupRow,
  clientGroupViews,
  clientsInGroup,
  groupsForClient,
  listClientGroups,
  visibleClientGroup,
} from '../../../projections/planning/groups/queries.js'
import type { ReadDb } from '../../../projections/tables.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId } from '../ids.js'

const domain = 'planning'

const GroupId = Id.describe('The client group (an integer id, as create_client_group or get_all_client_groups answered)')
const Name = z
  .string()
  .trim()
  .min(1)
  .max(GROUP_NAME_MAX_LENGTH)
  .describe(
    `The group's name, unique among the organization's live groups (case and spacing aside; at most ${GROUP_NAME_MAX_LENGTH} characters)`,
  )

const GroupSchema = z
  .object({
    id: GroupId,
    org_id: Id.describe('The organization it belongs to'),
    name: z.string().describe("The group's name"),
    description: z.string().nullable().describe('What the group is for; null when none was given'),
    member_count: z.number().int().describe('How many clients are in it, whatever their status'),
    active_member_count: z.number().int().describe('How many of them are active: the clients bulk_strategist plans'),
    client_ids: z.array(Id).describe("The members' client ids, in the order they joined"),
    created_at: z.string().describe('When it was created (ISO 8601)'),
    updated_at: z.string().describe('When it last changed: created, renamed or deleted (ISO 8601)'),
    deleted_at: z.string().nullable().describe('When delete_client_group deleted it; null: live'),
  })
  .describe('A client group')

const GroupClientSchema = z
  .object({
    id: ClientId,
    org_id: Id.describe('The organization it belongs to'),
    name: z.string().describe("The client's name"),
    website_url: z.string().describe("The client's website"),
    slug: z.string().describe("The client's slug"),
    status: ClientStatus.describe('active, paused, staging or deleted'),
    active: z.boolean().describe('Whether the client is active (status active): bulk_strategist plans only these'),
    services: z.array(z.string()).describe("The client's services"),
    locations: z.array(z.string()).describe("The client's locations"),
    created_at: z.string().describe('When the client was added (ISO 8601)'),
    updated_at: z.string().describe('When the client last changed (ISO 8601)'),
    deactivated_at: z.string().nullable().describe('When it was last paused or deleted; null when active'),
    deleted_at: z.string().nullable().describe('When it was deleted; null when not'),
    added_at: z.string().describe('When it joined the group (ISO 8601)'),
  })
  .describe("A member client: get_all_clients' row, with whether it is active and when it joined")

const exampleGroup = {
  id: 3,
  org_id: 1,
  name: 'Plumbers, Texas',
  description: 'Local plumbing clients billed on the Growth plan',
  member_count: 2,
  active_member_count: 2,
  client_ids: [34, 35],
  created_at: '2026-11-02T09:00:00.000Z',
  updated_at: '2026-11-02T09:00:00.000Z',
  deleted_at: null,
}

const exampleClient = {
  id: 34,
  org_id: 1,
  name: 'Acme Plumbing',
  website_url: 'https://www.acmeplumbing.com',
  slug: 'acme-plumbing',
  status: 'active' as const,
  active: true,
  services: ['Drain cleaning', 'Water heater repair'],
  locations: ['Austin, TX'],
  created_at: '2026-10-01T08:00:00.000Z',
  updated_at: '2026-10-01T08:00:00.000Z',
  deactivated_at: null,
  deleted_at: null,
  added_at: '2026-11-02T09:00:00.000Z',
}

async function groupView(db: ReadDb, row: ClientGroupRow) {
  const [view] = await clientGroupViews(db, [row])
  return view!
}

/** The group as the read models show it after this request's writes. */
async function settledGroup(ctx: { read: ReadDb; orgId: number | null; settle: () => Promise<void> }, groupId: number) {
  await ctx.settle()
  return groupView(ctx.read, await visibleClientGroup(ctx.read, ctx.orgId, groupId))
}

export const clientGroupsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'create_client_group',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Create a group of the organization's clients (bulk_strategist plans a group at once), optionally with its first members. " +
      "The name must be free among live groups (409 client_group_name_taken); every client must be the organization's and not " +
      'deleted (404 / 409 client_deleted, and then no group is created). Returns the group.',
    example: {
      params: { name: 'Plumbers, Texas', description: 'Local plumbing clients billed on the Growth plan', client_ids: [34, 35] },
      result: exampleGroup,
    },
    params: z.strictObject({
      name: Name,
      description: z
        .string()
        .max(GROUP_DESCRIPTION_MAX_LENGTH)
        .nullable()
        .optional()
        .describe(`What the group is for (at most ${GROUP_DESCRIPTION_MAX_LENGTH} characters; default none)`),
      client_ids: z.array(ClientId).max(1000).optional().describe('Clients to put in it at once (default none)'),
    }),
    result: GroupSchema,
    async handler(ctx) {
      const p = ctx.params
      const created = await createClientGroup(ctx.write, ctx.command, {
        orgId: requireOrgId(ctx.orgId),
        name: p.name,
        description: p.description ?? null,
        clientIds: p.client_ids ?? [],
      })
      return settledGroup(ctx, created.groupId)
    },
  }),
  rpc({
    name: 'rename_client_group',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Rename a live group. The new name must be free among the organization's other live groups (409 client_group_name_taken); " +
      'a deleted group answers 409 client_group_deleted. Returns the group.',
    example: { params: { group_id: 3, name: 'Plumbers, Central Texas' }, result: { ...exampleGroup, name: 'Plumbers, Central Texas' } },
    params: z.strictObject({ group_id: GroupId, name: Name }),
    result: GroupSchema,
    async handler(ctx) {
      const group = await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id)
      await renameClientGroup(ctx.write, ctx.command, { orgId: group.org_id, groupId: group.id, name: ctx.params.name })
      return settledGroup(ctx, group.id)
    },
  }),
  rpc({
    name: 'delete_client_group',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Soft-delete a group: it leaves every list and takes no jobs, its name is free again and its id is never reused. Its clients ' +
      'are untouched. Deleting again changes nothing. Returns the group (deleted_at set).',
    example: {
      params: { group_id: 3 },
      result: { ...exampleGroup, updated_at: '2026-11-20T10:00:00.000Z', deleted_at: '2026-11-20T10:00:00.000Z' },
    },
    params: z.strictObject({ group_id: GroupId }),
    result: GroupSchema,
    async handler(ctx) {
      const group = await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id)
      await deleteClientGroup(ctx.write, ctx.command, { orgId: group.org_id, groupId: group.id })
      return settledGroup(ctx, group.id)
    },
  }),
  rpc({
    name: 'add_client_to_group',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Put one of the organization's clients in a live group. Adding a member again changes nothing; a deleted client answers 409 " +
      'client_deleted, a deleted group 409 client_group_deleted. Returns the group.',
    example: {
      params: { group_id: 3, client_id: 36 },
      result: { ...exampleGroup, member_count: 3, active_member_count: 3, client_ids: [34, 35, 36] },
    },
    params: z.strictObject({ group_id: GroupId, client_id: ClientId }),
    result: GroupSchema,
    async handler(ctx) {
      const group = await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id)
      await addClientToGroup(ctx.write, ctx.command, { orgId: group.org_id, groupId: group.id, clientId: ctx.params.client_id })
      return settledGroup(ctx, group.id)
    },
  }),
  rpc({
    name: 'remove_client_from_group',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Take a client (of the organization, deleted or not) out of a live group. Removing a client that is not a member changes ' +
      'nothing. Returns the group.',
    example: {
      params: { group_id: 3, client_id: 35 },
      result: { ...exampleGroup, member_count: 1, active_member_count: 1, client_ids: [34] },
    },
    params: z.strictObject({ group_id: GroupId, client_id: ClientId }),
    result: GroupSchema,
    async handler(ctx) {
      const group = await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id)
      await removeClientFromGroup(ctx.write, ctx.command, { orgId: group.org_id, groupId: group.id, clientId: ctx.params.client_id })
      return settledGroup(ctx, group.id)
    },
  }),
  rpc({
    name: 'get_client_group',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'A group with its member count, active member count and client ids. A deleted group is still answered (deleted_at set); ' +
      "another organization's answers 404 like a missing one.",
    example: { params: { group_id: 3 }, result: exampleGroup },
    params: z.strictObject({ group_id: GroupId }),
    result: GroupSchema,
    async handler(ctx) {
      return groupView(ctx.read, await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id))
    },
  }),
  rpc({
    name: 'get_all_client_groups',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's live groups (deleted ones are left out), by name. active_only: only groups with at least one active " +
      'client (the groups bulk_strategist would accept).',
    example: { params: { active_only: true }, result: [exampleGroup] },
    params: z.strictObject({
      active_only: z
        .boolean()
        .default(false)
        .describe('Only groups with at least one active client (default false: every live group, empty ones included)'),
    }),
    result: z.array(GroupSchema).describe('The groups, by name'),
    async handler(ctx) {
      return listClientGroups(ctx.read, requireOrgId(ctx.orgId), ctx.params.active_only)
    },
  }),
  rpc({
    name: 'get_clients_in_group',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The group's clients in the order they joined, as get_all_clients shows them, whatever their status, each with an active " +
      'flag and when it joined.',
    example: { params: { group_id: 3 }, result: [exampleClient] },
    params: z.strictObject({ group_id: GroupId }),
    result: z.array(GroupClientSchema).describe('The member clients, in join order'),
    async handler(ctx) {
      const group = await visibleClientGroup(ctx.read, ctx.orgId, ctx.params.group_id)
      return clientsInGroup(ctx.read, group.id)
    },
  }),
  rpc({
    name: 'get_groups_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The live groups the client is in, by name.',
    example: { params: { client_id: 34 }, result: [exampleGroup] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(GroupSchema).describe("The client's groups, by name"),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return groupsForClient(ctx.read, client.id)
    },
  }),
]
