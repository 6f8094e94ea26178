import { sql, type Kysely } from 'kysely'

/**
 * es_events' primary key becomes (transaction_id, global_position), the log's order, and the separate
 * es_events_log_order index on the same columns goes. Every reader of the log (readPage, headPosition,
 * countAfter) seeks and orders by that pair; nothing reads by global_position alone (it stays, generated,
 * as the tie-breaker inside one transaction and as half of a position). Four indexes became three, so each
 * append writes one index entry (and its WAL) less per event.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table es_events drop constraint es_events_pkey, add constraint es_events_pkey primary key (transaction_id, global_position)`.execute(
    db,
  )
  await sql`drop index es_events_log_order`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index es_events_log_order on es_events (transaction_id, global_position)`.execute(db)
  await sql`alter table es_events drop constraint es_events_pkey, add constraint es_events_pkey primary key (global_position)`.execute(db)
}
