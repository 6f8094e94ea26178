import { sql, type Kysely } from 'kysely'

/** Job ids (the ids the API shows; never reused, even across a rebuild). */
export const JOB_ID_KINDS = ['job'] as const

/**
 * job_work: the job runner's work table (processor state, not a read model: it survives a rebuild, which
 * never re-fires jobs). A row is inserted by the job queue process manager from JobRequested and claimed by
 * workers with FOR UPDATE SKIP LOCKED, so any number of processes share the queue. While a worker runs a
 * job it pushes lease_expires_at forward (the heartbeat); the watchdog fails jobs whose lease ran out.
 * The row is deleted once the job is finished (its record lives in the read model `jobs`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const kind of JOB_ID_KINDS) await sql`create sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
  await sql`
    create table job_work (
      job_id bigint primary key,
      org_id bigint not null,
      kind text not null,
      client_id bigint,
      payload jsonb not null,
      -- queued: claimable; running: a worker holds it until lease_expires_at.
      status text not null default 'queued',
      attempt integer not null default 0,
      worker text,
      lease_expires_at timestamptz,
      queued_at timestamptz not null default now()
    )`.execute(db)
  await sql`create index job_work_queue on job_work (job_id) where status = 'queued'`.execute(db)
  await sql`create index job_work_leases on job_work (lease_expires_at) where status = 'running'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table job_work`.execute(db)
  for (const kind of JOB_ID_KINDS) await sql`drop sequence ${sql.id(`${kind}_id_seq`)}`.execute(db)
}
