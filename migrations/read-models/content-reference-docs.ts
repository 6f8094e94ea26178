import { sql, type Kysely } from 'kysely'

/**
 * The reference-docs sub-area's read models (projections/content/reference-docs): one row per reference
 * document, kept when deleted (deleted_at set) so a redelivered add cannot bring it back.
 */
export async function createReferenceDocsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('reference_docs')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint,
      kind text not null,
      title text not null,
      body text not null,
      version integer not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('reference_docs_org')} on ${t('reference_docs')} (org_id, id) where deleted_at is null`.execute(db)
}
