import { sql, type Kysely } from 'kysely'

/** A client's tracked keywords (projections/keywords). Deleted keywords keep their row (a soft delete). */
export async function createKeywordTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('keywords')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      keyword text not null,
      keyword_key text not null,
      source text not null,
      service text not null default '',
      location text not null default '',
      status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('keywords_client')} on ${t('keywords')} (client_id, status, id)`.execute(db)
  await sql`create index ${sql.id('keywords_key')} on ${t('keywords')} (keyword_key, org_id)`.execute(db)
}
