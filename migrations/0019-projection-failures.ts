import { sql, type Kysely } from 'kysely'

/**
 * A projection group that keeps failing (a projector throwing on an event, a read model the code cannot
 * write): one row per group while it fails, so that GET /api/v1/health in any process can say so. Not in the
 * read-model schema: it describes the runner, not the log, and a rebuild must not erase it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table projection_failures (
      group_name text primary key,
      failing_since timestamptz not null,
      last_failed_at timestamptz not null,
      failures integer not null,
      position text,
      error text not null
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table projection_failures`.execute(db)
}
