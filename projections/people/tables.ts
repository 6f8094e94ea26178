import type { ColumnType } from 'kysely'

/** The people read models as kysely sees them (DDL in migrations/read-models/people.ts). */
type Timestamp = ColumnType<Date, Date | string, Date | string>

export interface OrgMembersTable {
  user_id: number
  org_id: number
  email: string
  role: string
  /** invited: no second factor in force yet; active: can sign in. Removed members have no row. */
  status: string
  invited_at: Timestamp
  joined_at: Timestamp | null
  last_sign_in_at: Timestamp | null
  locked_until: Timestamp | null
}

export interface MemberInvitesTable {
  token_hash: string
  user_id: number
  org_id: number
  expires_at: Timestamp
}

export interface UserSessionsTable {
  session_hash: string
  user_id: number
  org_id: number
  created_at: Timestamp
  expires_at: Timestamp
  ended_at: Timestamp | null
}

export interface PasswordResetsTable {
  token_hash: string
  user_id: number
  org_id: number
  requested_at: Timestamp
  expires_at: Timestamp
  used_at: Timestamp | null
  invalidated_at: Timestamp | null
}

export interface PeopleReadModels {
  org_members: OrgMembersTable
  member_invites: MemberInvitesTable
  user_sessions: UserSessionsTable
  password_resets: PasswordResetsTable
}
