import { sql, type Kysely } from 'kysely'

/**
 * Id sequences of pages, page snapshots and site edits (ids the API shows; never reused, even across a
 * rebuild). Pages, snapshots and site edits are otherwise read models, rebuilt from the log.
 */
export const SITE_EDIT_ID_KINDS = ['page', 'page_snapshot', 'site_edit'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_EDIT_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of SITE_EDIT_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
