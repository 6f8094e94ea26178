import { sql, type Kysely } from 'kysely'

/** The cooldowns sub-area's read models (projections/monitoring/cooldowns): one row per client and reason. */
export async function createCooldownsTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('client_cooldowns')} (
      client_id bigint not null,
      org_id bigint not null,
      reason text not null,
      until timestamptz not null,
      note text,
      set_at timestamptz not null,
      cleared_at timestamptz,
      updated_at timestamptz not null,
      primary key (client_id, reason)
    )`.execute(db)
  await sql`create index ${sql.id('client_cooldowns_org_until')} on ${t('client_cooldowns')} (org_id, until)`.execute(db)
}
