import { sql, type Kysely } from 'kysely'

/** Webhooks, their deliveries and every attempt (projections/webhooks). Never the secret: only its hint. */
export async function createWebhookTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('webhooks')} (
      id bigint primary key,
      org_id bigint not null,
      url text not null,
      events text[],
      description text,
      active boolean not null,
      disabled_reason text,
      secret_hint text not null,
      failure_count integer not null default 0,
      last_attempt_at timestamptz,
      last_success_at timestamptz,
      last_failure_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('webhooks_org')} on ${t('webhooks')} (org_id, id) where deleted_at is null`.execute(db)
  await sql`
    create table ${t('webhook_delivery_records')} (
      id bigint primary key,
      webhook_id bigint not null,
      org_id bigint not null,
      event_number bigint not null,
      event text not null,
      client_id bigint,
      requested text,
      status text not null,
      attempts integer not null,
      last_status_code integer,
      last_error text,
      next_attempt_at timestamptz,
      first_attempt_at timestamptz not null,
      last_attempt_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('webhook_delivery_records_org')} on ${t('webhook_delivery_records')} (org_id, id desc)`.execute(db)
  await sql`create index ${sql.id('webhook_delivery_records_webhook')} on ${t('webhook_delivery_records')} (webhook_id, id desc)`.execute(
    db,
  )
  await sql`
    create table ${t('webhook_delivery_attempts')} (
      delivery_id bigint not null,
      attempt integer not null,
      org_id bigint not null,
      succeeded boolean not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      attempted_at timestamptz not null,
      primary key (delivery_id, attempt)
    )`.execute(db)
}
