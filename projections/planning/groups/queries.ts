import type { Selectable } from 'kysely'
import { NotFoundError } from '../../../domain/shared/errors.js'
import { clientViews, type ClientView } from '../../clients/queries.js'
import type { ReadDb } from '../../tables.js'
import type { ClientGroupsTable } from './tables.js'

export type ClientGroupRow = Selectable<ClientGroupsTable>

/** A group as the API shows it (get_client_group, get_all_client_groups, get_groups_for_client). */
export interface ClientGroupView {
  id: number
  org_id: number
  name: string
  description: string | null
  /** Every member, whatever its status. */
  member_count: number
  /** Members whose client is active: the clients bulk_strategist plans. */
  active_member_count: number
  /** The members' client ids, in the order they joined. */
  client_ids: number[]
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/** A member client as get_clients_in_group shows it: get_all_clients' row, with whether it is active. */
export type GroupClientView = ClientView & { active: boolean; added_at: string }

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

/** The group if it is visible in `orgId` (null: any organization, for platform callers), deleted or not. */
export async function findClientGroup(db: ReadDb, orgId: number | null, groupId: number): Promise<ClientGroupRow | undefined> {
  let query = db.selectFrom('client_groups').selectAll().where('id', '=', groupId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query.executeTakeFirst()
}

/** The group if the caller may see it; otherwise the same not-found whether it is missing or foreign. */
export async function visibleClientGroup(db: ReadDb, orgId: number | null, groupId: number): Promise<ClientGroupRow> {
  const row = await findClientGroup(db, orgId, groupId)
  if (!row) throw new NotFoundError('client group', groupId)
  return row
}

/** Each group's members with their client's status, in join order (then client id). */
async function membersOf(db: ReadDb, groupIds: readonly number[]) {
  if (groupIds.length === 0) return new Map<number, { client_id: number; status: string }[]>()
  const rows = await db
    .selectFrom('client_group_members as m')
    .innerJoin('clients as c', 'c.id', 'm.client_id')
    .select(['m.group_id', 'm.client_id', 'c.status'])
    .where('m.group_id', 'in', [...groupIds])
    .orderBy('m.added_at')
    .orderBy('m.client_id')
    .execute()
  const by = new Map<number, { client_id: number; status: string }[]>()
  for (const r of rows) by.set(r.group_id, [...(by.get(r.group_id) ?? []), { client_id: r.client_id, status: r.status }])
  return by
}

export async function clientGroupViews(db: ReadDb, rows: readonly ClientGroupRow[]): Promise<ClientGroupView[]> {
  const members = await membersOf(
    db,
    rows.map((r) => r.id),
  )
  return rows.map((r) => {
    const list = members.get(r.id) ?? []
    return {
      id: r.id,
      org_id: r.org_id,
      name: r.name,
      description: r.description,
      member_count: list.length,
      active_member_count: list.filter((m) => m.status === 'active').length,
      client_ids: list.map((m) => m.client_id),
      created_at: r.created_at.toISOString(),
      updated_at: r.updated_at.toISOString(),
      deleted_at: iso(r.deleted_at),
    }
  })
}

/**
 * The organization's live groups by name (then id). activeOnly: only those with at least one active client
 * (a group whose clients are all paused, staging or deleted has nothing for bulk_strategist to plan).
 */
export async function listClientGroups(db: ReadDb, orgId: number, activeOnly: boolean): Promise<ClientGroupView[]> {
  const rows = await db
    .selectFrom('client_groups')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute()
  const views = await clientGroupViews(db, rows)
  return activeOnly ? views.filter((g) => g.active_member_count > 0) : views
}

/** The group's member clients in join order, each with its status and an active flag. */
export async function clientsInGroup(db: ReadDb, groupId: number): Promise<GroupClientView[]> {
  const rows = await db
    .selectFrom('client_group_members as m')
    .innerJoin('clients as c', 'c.id', 'm.client_id')
    .selectAll('c')
    .select('m.added_at')
    .where('m.group_id', '=', groupId)
    .orderBy('m.added_at')
    .orderBy('m.client_id')
    .execute()
  const added = new Map(rows.map((r) => [r.id, r.added_at]))
  const views = await clientViews(
    db,
    rows.map(({ added_at: _added, ...client }) => client),
  )
  return views.map((v) => ({ ...v, active: v.status === 'active', added_at: added.get(v.id)!.toISOString() }))
}

/** The live groups the client is in, by name. */
export async function groupsForClient(db: ReadDb, clientId: number): Promise<ClientGroupView[]> {
  const rows = await db
    .selectFrom('client_groups as g')
    .innerJoin('client_group_members as m', 'm.group_id', 'g.id')
    .selectAll('g')
    .where('m.client_id', '=', clientId)
    .where('g.deleted_at', 'is', null)
    .orderBy('g.name')
    .orderBy('g.id')
    .execute()
  return clientGroupViews(db, rows)
}

/** The ids of the group's active clients, in join order: what a group-targeted job (bulk_strategist) works through. */
export async function activeClientIdsInGroup(db: ReadDb, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('client_group_members as m')
    .innerJoin('clients as c', 'c.id', 'm.client_id')
    .select('m.client_id')
    .where('m.group_id', '=', groupId)
    .where('c.status', '=', 'active')
    .orderBy('m.added_at')
    .orderBy('m.client_id')
    .execute()
  return rows.map((r) => r.client_id)
}
