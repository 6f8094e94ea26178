import { sql, type Kysely } from 'kysely'

/**
 * People read models (projections/people). Only org_members is readable through /api/v1/db; the other
 * three hold digests (invite, session and reset token hashes) and are read by the sign-in pages and the
 * password-reset RPCs only. No password hash, TOTP secret or recovery code is projected anywhere: sign-in
 * folds the user's stream for those.
 */
export async function createPeopleTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('org_members')} (
      user_id bigint primary key,
      org_id bigint not null,
      email text not null,
      role text not null,
      status text not null,
      invited_at timestamptz not null,
      joined_at timestamptz,
      last_sign_in_at timestamptz,
      locked_until timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('org_members_org')} on ${t('org_members')} (org_id, user_id)`.execute(db)
  await sql`create index ${sql.id('org_members_email')} on ${t('org_members')} (email)`.execute(db)
  await sql`
    create table ${t('member_invites')} (
      token_hash text primary key,
      user_id bigint not null,
      org_id bigint not null,
      expires_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('member_invites_user')} on ${t('member_invites')} (user_id)`.execute(db)
  await sql`
    create table ${t('user_sessions')} (
      session_hash text primary key,
      user_id bigint not null,
      org_id bigint not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      ended_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('user_sessions_user')} on ${t('user_sessions')} (user_id) where ended_at is null`.execute(db)
  await sql`
    create table ${t('password_resets')} (
      token_hash text primary key,
      user_id bigint not null,
      org_id bigint not null,
      requested_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz,
      invalidated_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('password_resets_user')} on ${t('password_resets')} (user_id, requested_at desc)`.execute(db)
}
