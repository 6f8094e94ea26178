import { sql, type Kysely } from 'kysely'

/** The id sequences of the content area (domain/content): ids the API shows, never reused, even across a rebuild. */
export const CONTENT_ID_KINDS = ['reference_doc', 'blog_topic', 'blog_content', 'client_image'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of CONTENT_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of CONTENT_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
