import { sql, type Kysely } from 'kysely'

/** surveys (projections/search/surveys): one row per onboarding survey, its answers by question id. */
export async function createSurveysTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('surveys')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      questionnaire text not null,
      status text not null,
      answers jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('surveys_client')} on ${t('surveys')} (client_id, id desc)`.execute(db)
}
