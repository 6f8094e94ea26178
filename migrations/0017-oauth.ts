import { sql, type Kysely } from 'kysely'

/**
 * The id sequences of OAuth clients and grants. Everything else about OAuth is in the log (`oauth_client-<id>`,
 * `oauth_grant-<id>`, codes and tokens as sha256 only) and in read models rebuilt from it.
 */
export const OAUTH_ID_KINDS = ['oauth_client', 'oauth_grant'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of OAUTH_ID_KINDS) await sql`create sequence if not exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of OAUTH_ID_KINDS) await sql`drop sequence if exists ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
