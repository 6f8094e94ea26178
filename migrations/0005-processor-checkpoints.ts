import { sql, type Kysely } from 'kysely'

/**
 * Where each process manager has got to in the log. Not in the read-model schema: a read-model rebuild
 * must never move a processor back (that would re-fire its side effects).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table processor_checkpoints (
      name text primary key,
      position text,
      updated_at timestamptz not null default now()
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table processor_checkpoints`.execute(db)
}
