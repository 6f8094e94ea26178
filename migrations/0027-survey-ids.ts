import { sql, type Kysely } from 'kysely'

/**
 * Id sequence of onboarding surveys (search tracking, domain/search/surveys): ids the API shows, never reused,
 * even across a rebuild. Nothing else of surveys is durable outside the log: the surveys table is a read model.
 */
export const SURVEY_ID_KINDS = ['survey'] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of SURVEY_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const kind of SURVEY_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
