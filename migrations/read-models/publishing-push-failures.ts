import { sql, type Kysely } from 'kysely'

/** The push failures sub-area's read models (projections/publishing/push-failures): one row per failure. */
export async function createPushFailuresTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('push_failures')} (
      id bigint primary key,
      org_id bigint not null,
      client_id bigint not null,
      operation text not null,
      category text not null,
      error text not null,
      edit_id bigint,
      target text,
      http_status integer,
      attempts integer,
      occurred_at timestamptz not null,
      resolved_at timestamptz,
      resolved_note text,
      resolved_auto boolean
    )`.execute(db)
  await sql`create index ${sql.id('push_failures_org_unresolved')} on ${t('push_failures')} (org_id, occurred_at) where resolved_at is null`.execute(
    db,
  )
  await sql`create index ${sql.id('push_failures_client')} on ${t('push_failures')} (client_id, occurred_at)`.execute(db)
}
