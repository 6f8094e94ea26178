import { sql, type Kysely } from 'kysely'

/**
 * Ids are the integers the API shows, one sequence per kind; stream names derive from them
 * (`client-34`). They live outside the read models so a rebuild never reuses an id.
 */
export const ID_KINDS = ['organization', 'api_key', 'client', 'service', 'location'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
