import { sql, type Kysely } from 'kysely'

/**
 * The hour budgets and cycles sub-area's read models (projections/planning/cycles): one row per client and
 * month a budget setting starts (hours null: the budget removed from that month on). The cycle views read
 * these beside the action items tables.
 */
export async function createCyclesTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('hour_budget_settings')} (
      client_id bigint not null,
      from_month text not null,
      org_id bigint not null,
      hours double precision,
      set_at timestamptz not null,
      primary key (client_id, from_month)
    )`.execute(db)
  await sql`create index ${sql.id('hour_budget_settings_org')} on ${t('hour_budget_settings')} (org_id)`.execute(db)
}
