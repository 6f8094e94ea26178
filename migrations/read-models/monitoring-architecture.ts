import { sql, type Kysely } from 'kysely'

/**
 * The architecture sub-area's read models (projections/monitoring/architecture): each crawled page's outgoing
 * internal links from its latest snapshot with a page state, and where that snapshot's fetch ended (a
 * redirect's target), which get_site_architecture joins with the latest crawl's pages.
 */
export async function createArchitectureTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('page_links')} (
      page_id bigint not null,
      to_url text not null,
      org_id bigint not null,
      client_id bigint not null,
      from_url text not null
    )`.execute(db)
  // No key on (page_id, to_url): a URL may be 2,000 characters, beyond a btree row; the projector replaces a
  // page's links whole (delete, then insert the distinct ones), so none is ever doubled.
  await sql`create index ${sql.id('page_links_page')} on ${t('page_links')} (page_id)`.execute(db)
  // get_site_architecture reads a client's links whole.
  await sql`create index ${sql.id('page_links_client')} on ${t('page_links')} (client_id)`.execute(db)
  await sql`
    create table ${t('page_link_sources')} (
      page_id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      snapshot_id bigint not null,
      url text not null,
      final_url text not null,
      status integer not null,
      links integer not null,
      recorded_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('page_link_sources_client')} on ${t('page_link_sources')} (client_id)`.execute(db)
}
