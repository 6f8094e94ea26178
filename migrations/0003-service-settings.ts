import { sql, type Kysely } from 'kysely'

/**
 * Operator settings that every process must agree on (not read models: they are not derived from the
 * log and survive a rebuild). A key/value table so later settings need no migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table service_settings (
      key text primary key,
      value jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table service_settings`.execute(db)
}
