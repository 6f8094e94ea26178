import { sql, type Kysely } from 'kysely'

/**
 * The id sequence of Search Console captures (ids the API shows; never reused, even across a rebuild). A
 * capture's rows, like everything else of Search Console, live in the log and in read models rebuilt from it.
 */
export const GSC_ID_KINDS = ['gsc_capture'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of GSC_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of GSC_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
