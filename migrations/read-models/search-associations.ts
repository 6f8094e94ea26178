import { sql, type Kysely } from 'kysely'

/**
 * keyword_pages (projections/search/associations): one row per keyword ↔ page link, with whether the page is
 * the keyword's primary one. Keyword text and page URL are joined from keywords and pages when read.
 */
export async function createAssociationsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('keyword_pages')} (
      keyword_id bigint not null,
      page_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      is_primary boolean not null,
      associated_at timestamptz not null,
      updated_at timestamptz not null,
      primary key (keyword_id, page_id)
    )`.execute(db)
  await sql`create index ${sql.id('keyword_pages_client')} on ${t('keyword_pages')} (client_id, keyword_id)`.execute(db)
  await sql`create index ${sql.id('keyword_pages_page')} on ${t('keyword_pages')} (page_id)`.execute(db)
}
