import { sql, type Kysely } from 'kysely'

/** The job records (projections/jobs): what GET /api/v1/jobs/<id> and the job RPCs show. */
export async function createJobTables(db: Kysely<any>, schema: string): Promise<void> {
  const t = (name: string) => sql.id(schema, name)
  await sql`
    create table ${t('jobs')} (
      id bigint primary key,
      org_id bigint not null,
      kind text not null,
      client_id bigint,
      group_id bigint,
      meter boolean not null,
      status text not null,
      attempts integer not null default 0,
      cancel_requested boolean not null default false,
      progress jsonb,
      result jsonb,
      error text,
      failure_reason text,
      revision bigint not null,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      updated_at timestamptz not null
    )`.execute(db)
  await sql`create index ${sql.id('jobs_org_created')} on ${t('jobs')} (org_id, created_at desc)`.execute(db)
  await sql`create index ${sql.id('jobs_active')} on ${t('jobs')} (org_id) where status in ('queued', 'running')`.execute(db)
}
