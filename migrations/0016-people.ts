import { sql, type Kysely } from 'kysely'

/**
 * The id sequence of users (the member ids the API shows). Everything else about people is in the log
 * (`user-<id>`, `user_email-<digest>`) and in read models rebuilt from it; sessions too are events
 * (UserSignedIn / UserSignedOut), so there is no durable work table here.
 */
export const PEOPLE_ID_KINDS = ['user'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of PEOPLE_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of PEOPLE_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
