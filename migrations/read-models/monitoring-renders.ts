import { sql, type Kysely } from 'kysely'

/** The renders sub-area's read models (projections/monitoring/renders): one row per rendered URL of a render scan. */
export async function createRendersTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('page_renders')} (
      render_id text primary key,
      scan_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      page_url text not null,
      url_key text not null,
      page_id bigint,
      final_url text,
      status integer,
      html_path text,
      html_bytes bigint,
      html_truncated boolean not null,
      screenshot_path text,
      screenshot_bytes bigint,
      screenshot_width integer,
      screenshot_height integer,
      content_hash text,
      snapshot_id bigint,
      requests_blocked integer not null,
      blocked_urls jsonb not null,
      error_code text,
      error_message text,
      rendered_at timestamptz not null
    )`.execute(db)
  // get_latest_render: the newest render of one URL of a client.
  await sql`create index ${sql.id('page_renders_latest')} on ${t('page_renders')} (client_id, url_key, rendered_at desc, render_id desc)`.execute(
    db,
  )
}
