import { sql, type Kysely } from 'kysely'

/**
 * OAuth read models: registered clients, grants (the Connected apps list), and the digests of live access
 * tokens (what bearer authentication looks up). Codes and refresh tokens are decided on their grant's stream
 * and have no table.
 */
export async function createOAuthTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('oauth_clients')} (
      id bigint primary key,
      client_name text not null,
      redirect_uris text[] not null,
      client_uri text,
      logo_uri text,
      software_id text,
      software_version text,
      registered_at timestamptz not null
    )`.execute(db)
  await sql`
    create table ${t('oauth_grants')} (
      id bigint primary key,
      org_id bigint not null,
      user_id bigint not null,
      client_id bigint not null,
      scopes text not null,
      resource text,
      created_at timestamptz not null,
      last_issued_at timestamptz,
      generation integer not null default 0,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text
    )`.execute(db)
  await sql`create index ${sql.id('oauth_grants_org_user')} on ${t('oauth_grants')} (org_id, user_id, id)`.execute(db)
  await sql`
    create table ${t('oauth_access_tokens')} (
      token_hash text primary key,
      grant_id bigint not null,
      expires_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('oauth_access_tokens_grant')} on ${t('oauth_access_tokens')} (grant_id)`.execute(db)
}
