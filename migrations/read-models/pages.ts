import { sql, type Kysely } from 'kysely'

/** A client's pages and their content snapshots (projections/pages). */
export async function createPageTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('pages')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      url text not null,
      slug text not null,
      wp_post_id bigint,
      title text not null,
      active boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('pages_client')} on ${t('pages')} (client_id, id)`.execute(db)
  await sql`
    create table ${t('page_snapshots')} (
      id bigint primary key,
      page_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      title text not null,
      content text not null,
      source text not null,
      edit_id bigint,
      created_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('page_snapshots_page')} on ${t('page_snapshots')} (page_id, id desc)`.execute(db)
}
