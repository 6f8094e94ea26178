import { sql, type Kysely } from 'kysely'

export async function createClientTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('clients')} (
      id bigint primary key,
      org_id bigint not null,
      name text not null,
      website_url text not null,
      slug text not null,
      status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deactivated_at timestamptz,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('clients_org')} on ${t('clients')} (org_id, status, id)`.execute(db)
  await sql`create index ${sql.id('clients_slug')} on ${t('clients')} (org_id, slug)`.execute(db)
  await sql`
    create table ${t('client_services')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      name text not null,
      description text not null default '',
      created_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('client_services_client')} on ${t('client_services')} (client_id, id)`.execute(db)
  await sql`
    create table ${t('client_locations')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      name text not null,
      city text not null default '',
      state text not null default '',
      country text not null default '',
      created_at timestamptz not null,
      removed_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('client_locations_client')} on ${t('client_locations')} (client_id, id)`.execute(db)
  await sql`
    create table ${t('client_settings')} (
      client_id bigint not null,
      key text not null,
      org_id bigint not null,
      value text not null,
      updated_at timestamptz not null,
      primary key (client_id, key)
    )`.execute(db)
}
