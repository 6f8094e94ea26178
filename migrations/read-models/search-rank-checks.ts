import { sql, type Kysely } from 'kysely'

/** Rank-check cadences and checks (projections/search/rank-checks). */
export async function createRankChecksTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('rank_cadences')} (
      client_id bigint primary key,
      org_id bigint not null,
      frequency text not null,
      devices text[] not null,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`
    create table ${t('rank_checks')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      date text not null,
      trigger text not null,
      status text not null,
      devices text[] not null,
      keyword_count integer,
      location_count integer,
      tasks_total integer,
      tasks_done integer not null default 0,
      tasks_failed integer not null default 0,
      provider_calls integer not null default 0,
      retries integer not null default 0,
      attempt integer not null default 0,
      provider text,
      worker text,
      lease_expires_at timestamptz,
      error_code text,
      error_message text,
      failed_tasks jsonb not null default '[]'::jsonb,
      queued_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  // get_rank_checks (newest first) and the cadence's "last check" per client.
  await sql`create index ${sql.id('rank_checks_client')} on ${t('rank_checks')} (client_id, id desc)`.execute(db)
  // The runner's look for work: open checks, oldest first.
  await sql`create index ${sql.id('rank_checks_open')} on ${t('rank_checks')} (id) where status in ('queued', 'running')`.execute(db)
}
