import { sql, type Kysely } from 'kysely'

/**
 * The images sub-area's read models (projections/content/images): one row per client image, its current
 * version, files and where it stands against the site's media library.
 */
export async function createImagesTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('client_images')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      filename text not null,
      image_type text not null,
      alt_text text not null,
      title text not null,
      page_id bigint,
      source_url text not null,
      version integer not null,
      format text not null,
      content_type text not null,
      width integer not null,
      height integer not null,
      bytes bigint not null,
      sha256 text not null,
      path text not null,
      webp_path text not null,
      webp_width integer not null,
      webp_height integer not null,
      webp_bytes bigint not null,
      wp_attachment_id bigint,
      pushed_sha256 text,
      pushed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create unique index ${sql.id('client_images_client_filename')} on ${t('client_images')} (client_id, filename)`.execute(db)
  await sql`create index ${sql.id('client_images_page')} on ${t('client_images')} (page_id) where page_id is not null`.execute(db)
  await sql`create index ${sql.id('client_images_out_of_sync')} on ${t('client_images')} (org_id, id) where pushed_sha256 is distinct from sha256`.execute(
    db,
  )
}
