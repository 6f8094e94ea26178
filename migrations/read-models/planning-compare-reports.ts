import { sql, type Kysely } from 'kysely'

/**
 * The compare reports sub-area's read models (projections/planning/compare-reports): one row per report, a
 * report being one client-month (filing the month again replaces the row's file and numbers, keeps its id).
 */
export async function createCompareReportsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('compare_reports')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      month text not null,
      against_month text not null,
      path text not null,
      content_type text not null,
      bytes integer not null,
      sha256 text not null,
      summary jsonb not null,
      created_at timestamptz not null,
      filed_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('compare_reports_org_filed')} on ${t('compare_reports')} (org_id, filed_at desc, id desc)`.execute(db)
  await sql`create index ${sql.id('compare_reports_client_month')} on ${t('compare_reports')} (client_id, month)`.execute(db)
}
