import { sql, type Kysely } from 'kysely'

export async function createOrganizationTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('organizations')} (
      id bigint primary key,
      name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      brand_name text,
      logo_url text,
      accent_color text
    )`.execute(db)
  await sql`
    create table ${t('api_keys')} (
      id bigint primary key,
      org_id bigint,
      name text not null,
      notes text not null default '',
      scopes text not null,
      key_hash text not null unique,
      key_hint text not null,
      created_by_user_id bigint,
      created_at timestamptz not null,
      revoked_at timestamptz,
      rate_limit_per_minute integer
    )`.execute(db)
  await sql`create index ${sql.id('api_keys_org')} on ${t('api_keys')} (org_id, id)`.execute(db)
  await sql`
    create table ${t('org_activity')} (
      event_id uuid primary key,
      org_id bigint not null,
      stream text not null,
      event_type text not null,
      client_id bigint,
      actor_kind text not null,
      actor_id text,
      occurred_at timestamptz not null,
      stream_revision bigint not null,
      position text not null
    )`.execute(db)
  await sql`
    create index ${sql.id('org_activity_org_time')} on ${t('org_activity')} (org_id, occurred_at desc)
  `.execute(db)
  // get_client_activity: one client's feed, newest first, without walking the rest of its organization's.
  await sql`create index ${sql.id('org_activity_client_time')} on ${t('org_activity')} (client_id, occurred_at desc)`.execute(db)
}
