import { sql, type Kysely } from 'kysely'

/**
 * The content pages sub-area's read models (projections/publishing/content-pages): one row per content
 * page, unique per client and WordPress post as its stream decides.
 */
export async function createContentPagesTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('content_pages')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      wp_post_id bigint not null,
      job_id bigint,
      slug text not null,
      title text not null,
      status text not null,
      verify_json text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create unique index ${sql.id('content_pages_client_post')} on ${t('content_pages')} (client_id, wp_post_id)`.execute(db)
}
