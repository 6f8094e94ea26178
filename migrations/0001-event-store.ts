import { sql, type Kysely } from 'kysely'

/**
 * The PostgreSQL event store. `es_streams` carries each stream's current revision (compare-and-set);
 * `es_events` is the log. Global order is (transaction_id, global_position): readers only take rows whose
 * transaction is below pg_snapshot_xmin, so a transaction that commits late is never skipped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table es_streams (
      stream_name text primary key,
      revision bigint not null
    )`.execute(db)
  await sql`
    create table es_events (
      global_position bigint generated always as identity primary key,
      transaction_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null unique,
      stream_name text not null,
      stream_revision bigint not null,
      type text not null,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      unique (stream_name, stream_revision)
    )`.execute(db)
  await sql`create index es_events_log_order on es_events (transaction_id, global_position)`.execute(db)
  // One NOTIFY per appending statement wakes live subscribers in every process.
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

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table es_events`.execute(db)
  await sql`drop table es_streams`.execute(db)
  await sql`drop function es_events_notify`.execute(db)
}
