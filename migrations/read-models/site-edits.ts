import { sql, type Kysely } from 'kysely'

/** Site edits and their apply attempts (projections/site-edits). */
export async function createSiteEditTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('site_edits')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      operation text not null,
      page_url text not null,
      page_id bigint,
      payload text not null,
      status text not null,
      approved_by text not null default '',
      job_id bigint,
      staged_by text not null,
      applied_by text,
      rolled_back_by text,
      before_snapshot_id bigint,
      after_snapshot_id bigint,
      restored_snapshot_id bigint,
      apply_attempts integer not null default 0,
      last_error text,
      revision bigint not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      applied_at timestamptz,
      rolled_back_at timestamptz
    )`.execute(db)
  await sql`create index ${sql.id('site_edits_client')} on ${t('site_edits')} (client_id, status, id)`.execute(db)
  await sql`create index ${sql.id('site_edits_org')} on ${t('site_edits')} (org_id, status, id)`.execute(db)
  await sql`create index ${sql.id('site_edits_job')} on ${t('site_edits')} (job_id, page_id) where job_id is not null`.execute(db)
  // One row per apply attempt (the event id keeps a redelivered event from counting twice).
  await sql`
    create table ${t('site_edit_attempts')} (
      event_id text primary key,
      edit_id bigint not null,
      client_id bigint not null,
      org_id bigint not null,
      succeeded boolean not null,
      attempted_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('site_edit_attempts_time')} on ${t('site_edit_attempts')} (attempted_at, org_id)`.execute(db)
}
