import { sql, type Kysely } from 'kysely'

/**
 * A client's pages and their content snapshots (projections/pages). A crawled or rendered snapshot keeps the
 * page state the monitor saw in `state` (jsonb, without its main text, which is the row's `content`), the
 * scan that saw it and the HTTP validators the next scan's conditional request sends.
 */
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
      scan_id bigint,
      state jsonb,
      etag text,
      last_modified text,
      created_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('page_snapshots_page')} on ${t('page_snapshots')} (page_id, id desc)`.execute(db)
  // The monitoring reads by client and day (get_available_snapshot_dates, get_first_snapshot_dates).
  await sql`create index ${sql.id('page_snapshots_client')} on ${t('page_snapshots')} (client_id, created_at)`.execute(db)
}
