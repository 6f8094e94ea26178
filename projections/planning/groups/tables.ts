import type { ColumnType } from 'kysely'

/** The client groups read models as kysely sees them (DDL in migrations/read-models/planning-groups.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

/** One row per group of an organization; a deleted group keeps its row (deleted_at set). */
export interface ClientGroupsTable {
  id: number
  org_id: number
  name: string
  description: string | null
  created_at: Timestamp
  updated_at: Timestamp
  /** When delete_client_group deleted it; null: live. */
  deleted_at: Timestamp | null
}

/** One row per client currently in a group (a removed client's row is gone). */
export interface ClientGroupMembersTable {
  group_id: number
  client_id: number
  org_id: number
  /** When it (last) joined. */
  added_at: Timestamp
}

export interface ClientGroupsReadModels {
  client_groups: ClientGroupsTable
  client_group_members: ClientGroupMembersTable
}
