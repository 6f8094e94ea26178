import { sql, type Kysely } from 'kysely'

/** Cadences, the run queue and the agents (projections/aeo/runs). */
export async function createAeoRunTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('aeo_cadences')} (
      client_id bigint primary key,
      org_id bigint not null,
      enabled boolean not null,
      samples_per_month integer not null,
      engines text[] not null,
      geo_state text,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`
    create table ${t('aeo_runs')} (
      id bigint primary key,
      client_id bigint not null,
      org_id bigint not null,
      query_id bigint not null,
      engine text not null,
      month text not null,
      geo_state text,
      priority integer not null,
      sample integer not null,
      status text not null,
      agent_id text,
      agent_org_id bigint,
      attempts integer not null default 0,
      error text,
      capture_id bigint,
      lease_expires_at timestamptz,
      retry_at timestamptz,
      revision bigint not null,
      queued_at timestamptz not null,
      claimed_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  // The claim order, walked in order until `limit` runs pass the engine/geo/lease filters: for a platform
  // agent over every organization, and for an organization's agent within it. (An agent has several
  // engines, so the engine cannot lead the index without a sort of the whole queue per claim.)
  await sql`create index ${sql.id('aeo_runs_queue')} on ${t('aeo_runs')} (priority desc, id) where status = 'queued'`.execute(db)
  await sql`create index ${sql.id('aeo_runs_queue_org')} on ${t('aeo_runs')} (org_id, priority desc, id) where status = 'queued'`.execute(
    db,
  )
  await sql`create index ${sql.id('aeo_runs_client_month')} on ${t('aeo_runs')} (client_id, month, query_id, engine)`.execute(db)
  await sql`create index ${sql.id('aeo_runs_org')} on ${t('aeo_runs')} (org_id, status)`.execute(db)
  await sql`create index ${sql.id('aeo_runs_leased')} on ${t('aeo_runs')} (lease_expires_at) where status in ('claimed', 'running')`.execute(
    db,
  )
  await sql`
    create table ${t('aeo_agents')} (
      agent_key text primary key,
      agent_id text not null,
      agent_org_id bigint,
      engines text[] not null,
      geo text not null,
      max_per_day integer,
      registered_at timestamptz not null,
      last_seen_at timestamptz not null
    )`.execute(db)
}
