import { sql, type Kysely } from 'kysely'

/** The redirects sub-area's read models (projections/publishing/redirects): one row per redirect site edit. */
export async function createRedirectsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('redirects')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      edit_id bigint not null,
      from_url text not null,
      to_url text not null,
      status_code integer not null,
      action_item_id bigint,
      to_page_id bigint,
      status text not null,
      publisher text,
      remote_id text,
      applied_at timestamptz,
      rolled_back_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('redirects_client')} on ${t('redirects')} (client_id, id)`.execute(db)
}
