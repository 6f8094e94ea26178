import { sql, type Kysely } from 'kysely'

/**
 * The id sequences of the publishing area (domain/publishing): ids the API shows, never reused, even across a
 * rebuild. A site connection is keyed by its client and an Elementor page by (project, wp_post_id): no id.
 */
export const PUBLISHING_ID_KINDS = [
  'push_failure',
  'redirect',
  'content_page',
  'website_project',
  'sitemap_page',
  'generated_content',
  'section_template',
  'template_page',
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of PUBLISHING_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of PUBLISHING_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
