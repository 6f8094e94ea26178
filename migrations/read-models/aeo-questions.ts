import { sql, type Kysely } from 'kysely'

/** The AI Visibility question set (projections/aeo/questions). */
export async function createAeoQuestionTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('aeo_queries')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      prompt text not null,
      prompt_key text not null,
      engine text not null,
      service text not null default '',
      location text not null default '',
      kind text not null,
      priority integer not null,
      active boolean not null,
      source text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('aeo_queries_client')} on ${t('aeo_queries')} (client_id, active desc, priority desc, id)`.execute(db)
}
