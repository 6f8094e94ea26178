import { sql, type Kysely } from 'kysely'

/**
 * Idempotency records (Idempotency-Key on POST /api/v1/rpc/* and job creation). They live here, in the
 * durable public schema, because every API process must see the same record: the primary key is what makes a
 * request run exactly once when fifty copies arrive at once on several processes (the first INSERT wins, the
 * others find its row). Not a read model: nothing in the log derives them, and a rebuild must not forget them.
 *
 * One row per (caller, key): `in_flight` while the first request runs (owner names that attempt, so a
 * late finisher cannot overwrite a takeover), then `completed` with the response to replay until expires_at.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table idempotency_keys (
      caller text not null,
      key text not null,
      request_hash text not null,
      state text not null check (state in ('in_flight', 'completed')),
      owner uuid not null,
      locked_at timestamptz not null default now(),
      expires_at timestamptz not null,
      status integer,
      headers jsonb,
      body text,
      completed_at timestamptz,
      primary key (caller, key)
    )`.execute(db)
  // The sweep deletes expired rows oldest first.
  await sql`create index idempotency_keys_expires on idempotency_keys (expires_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table idempotency_keys`.execute(db)
}
