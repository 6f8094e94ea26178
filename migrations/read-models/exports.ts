import { sql, type Kysely } from 'kysely'

/** Organization export files (projections/exports): what list_org_exports and the download route read. */
export async function createExportTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('org_exports')} (
      job_id bigint primary key,
      org_id bigint not null,
      filename text not null,
      path text not null,
      size bigint not null,
      sha256 text not null,
      tables integer not null,
      rows bigint not null,
      position text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      expired_at timestamptz
    )`.execute(db)
  await sql`create unique index ${sql.id('org_exports_org_filename')} on ${t('org_exports')} (org_id, filename)`.execute(db)
  await sql`create index ${sql.id('org_exports_due')} on ${t('org_exports')} (expires_at) where expired_at is null`.execute(db)
}
