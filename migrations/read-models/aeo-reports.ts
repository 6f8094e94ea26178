import { sql, type Kysely } from 'kysely'

/** Filed monthly reports (projections/aeo/reports). */
export async function createAeoReportTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('aeo_reports')} (
      client_id bigint not null,
      month text not null,
      org_id bigint not null,
      path text not null,
      content_type text not null,
      bytes integer not null,
      sha256 text not null,
      filed_at timestamptz not null,
      primary key (client_id, month, path)
    )`.execute(db)
}
