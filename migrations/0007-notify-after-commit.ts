import { sql, type Kysely } from 'kysely'

/**
 * Drops the NOTIFY trigger on es_events. A transaction that has sent a notification takes a cluster-wide
 * lock while it commits, so with the trigger every append serialized its commit (and its WAL flush) behind
 * every other: concurrent writers could not share a flush. The store now announces appends itself, after
 * they commit, at most one announcement in flight per process (commands/event-store/postgres.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger es_events_appended on es_events`.execute(db)
  await sql`drop function es_events_notify()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create function es_events_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify('rr_es_appended', '');
      return null;
    end $$`.execute(db)
  await sql`
    create trigger es_events_appended after insert on es_events
    for each statement execute function es_events_notify()`.execute(db)
}
