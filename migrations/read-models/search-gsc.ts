import { sql, type Kysely } from 'kysely'

/**
 * Search Console's read models (projections/search/gsc): each client's property (never its credentials:
 * those stay sealed in the log), its captures, and the captured rows. The insights read gsc_captures and
 * gsc_capture_rows too, so their columns keep Search Console's plain names.
 */
export async function createGscTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('gsc_properties')} (
      client_id bigint primary key,
      org_id bigint not null,
      property text not null,
      property_type text not null,
      auth_type text not null,
      service_account_email text,
      cadence text not null,
      status text not null,
      connected_at timestamptz not null,
      updated_at timestamptz not null,
      removed_at timestamptz
    )`.execute(db)
  await sql`
    create table ${t('gsc_captures')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      property text not null,
      start_date date not null,
      end_date date not null,
      trigger text not null,
      status text not null,
      attempts integer not null,
      row_count bigint not null,
      days_recorded integer not null,
      error_code text,
      error_message text,
      queued_at timestamptz not null,
      started_at timestamptz,
      next_attempt_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('gsc_captures_client')} on ${t('gsc_captures')} (client_id, id)`.execute(db)
  await sql`create index ${sql.id('gsc_captures_open')} on ${t('gsc_captures')} (status, next_attempt_at) where status in ('queued', 'running', 'retrying')`.execute(
    db,
  )
  // row_no: the row's number within its capture, given by the capture's stream, so a redelivered event
  // inserts nothing. The query × page × date key is unique within a capture by the same stream's rule.
  await sql`
    create table ${t('gsc_capture_rows')} (
      capture_id bigint not null,
      row_no integer not null,
      client_id bigint not null,
      org_id bigint not null,
      date date not null,
      query text not null,
      page text not null,
      clicks integer not null,
      impressions integer not null,
      ctr double precision not null,
      position double precision not null,
      primary key (capture_id, row_no)
    )`.execute(db)
  await sql`create index ${sql.id('gsc_capture_rows_day')} on ${t('gsc_capture_rows')} (capture_id, date)`.execute(db)
}
