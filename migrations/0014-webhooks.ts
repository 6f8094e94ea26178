import { sql, type Kysely } from 'kysely'

/** Id sequences of webhooks and their deliveries (ids the API shows). */
export const WEBHOOK_ID_KINDS = ['webhook', 'webhook_delivery'] as const

/**
 * The webhook dispatcher's own state (processors/webhooks), durable and never rebuilt (a rebuild must not
 * re-fire deliveries):
 * - webhook_targets: each webhook as the dispatcher knows it, maintained in log order by its subscription, so
 *   the fan-out of an event sees exactly the webhooks registered before it; plus the consecutive-failure count.
 * - webhook_events: every webhook-visible event, numbered in log order (the body's `id`), with its public
 *   body; the cursor feed (GET /api/v1/events) reads it. org_id null: a platform event (api.deprecation),
 *   visible to every organization.
 * - webhook_deliveries: the work table, one row per (webhook, event) or requested send; workers claim due
 *   rows with FOR UPDATE SKIP LOCKED and hold them with a lease while sending.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of WEBHOOK_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
  await sql`
    create table webhook_targets (
      webhook_id bigint primary key,
      org_id bigint not null,
      url text not null,
      host text not null,
      events text[],
      active boolean not null,
      deleted boolean not null default false,
      secret_sealed text not null,
      consecutive_failures integer not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db)
  await sql`create index webhook_targets_org on webhook_targets (org_id) where active and not deleted`.execute(db)
  await sql`
    create table webhook_events (
      number bigserial primary key,
      event_id text not null unique,
      org_id bigint,
      name text not null,
      client_id bigint,
      data jsonb not null,
      created_at timestamptz not null,
      in_feed boolean not null
    )`.execute(db)
  await sql`create index webhook_events_feed on webhook_events (org_id, number) where in_feed`.execute(db)
  await sql`
    create table webhook_deliveries (
      id bigint primary key,
      webhook_id bigint not null,
      org_id bigint not null,
      event_number bigint not null references webhook_events (number),
      requested text,
      status text not null,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      lease_until timestamptz,
      created_at timestamptz not null,
      finished_at timestamptz
    )`.execute(db)
  // One delivery per webhook and event from the fan-out (a redelivered subscription event inserts nothing).
  await sql`create unique index webhook_deliveries_fanout on webhook_deliveries (webhook_id, event_number) where requested is null`.execute(
    db,
  )
  // The head of each webhook's ordered queue, and the due rows.
  await sql`create index webhook_deliveries_open on webhook_deliveries (webhook_id, event_number) where finished_at is null and requested is null`.execute(
    db,
  )
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db)
  await sql`create index webhook_deliveries_leased on webhook_deliveries (lease_until) where status = 'in_flight'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_deliveries`.execute(db)
  await sql`drop table webhook_events`.execute(db)
  await sql`drop table webhook_targets`.execute(db)
  for (const kind of WEBHOOK_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
