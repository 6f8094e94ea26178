import { sql, type Kysely } from 'kysely'

/**
 * Id sequence of rank checks (search tracking, domain/search/rank-checks): ids the API shows, never reused,
 * even across a rebuild. Nothing else of rank checks is durable outside the log: rank_cadences and rank_checks
 * are read models, and a check's claim is its lease in the log.
 */
export const RANK_CHECK_ID_KINDS = ['rank_check'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of RANK_CHECK_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of RANK_CHECK_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
