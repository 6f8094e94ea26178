import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The job runner's work table (migrations/0010-jobs.ts). Leases are computed with the database's clock, so
 * workers and the watchdog on several machines agree on when a lease ran out whatever their own clocks say.
 */
export interface WorkRow {
  job_id: number
  org_id: number
  kind: string
  client_id: number | null
  attempt: number
}

/** Queues a job (the queue process manager, from JobRequested). A redelivered event changes nothing. */
export async function enqueueWork(
  db: Kysely<WorkTables>,
  row: { job_id: number; org_id: number; kind: string; client_id: number | null; payload: unknown },
): Promise<void> {
  await sql`
    insert into job_work (job_id, org_id, kind, client_id, payload)
    values (${row.job_id}, ${row.org_id}, ${row.kind}, ${row.client_id}, ${JSON.stringify(row.payload)}::jsonb)
    on conflict (job_id) do nothing`.execute(db)
}

/**
 * Claims up to `limit` queued jobs of the given kinds, oldest first, for `worker`, leased for `leaseMs`.
 * FOR UPDATE SKIP LOCKED: concurrent claimers in any process take disjoint rows and never wait on each other.
 */
export async function claimWork(
  db: Kysely<WorkTables>,
  worker: string,
  kinds: readonly string[],
  limit: number,
  leaseMs: number,
): Promise<WorkRow[]> {
  if (limit <= 0 || kinds.length === 0) return []
  const { rows } = await sql<WorkRow>`
    update job_work w
       set status = 'running', worker = ${worker}, attempt = w.attempt + 1,
           lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
     where w.job_id in (
       select job_id from job_work
        where status = 'queued' and kind = any(${sql.val([...kinds])}::text[])
        order by job_id
        limit ${limit}
        for update skip locked)
    returning w.job_id, w.org_id, w.kind, w.client_id, w.attempt`.execute(db)
  return rows.map((r) => ({
    ...r,
    job_id: Number(r.job_id),
    org_id: Number(r.org_id),
    client_id: r.client_id === null ? null : Number(r.client_id),
  }))
}

/** The heartbeat: pushes the lease forward. False when the worker no longer holds the row (the watchdog took it). */
export async function renewLease(db: Kysely<WorkTables>, jobId: number, worker: string, leaseMs: number): Promise<boolean> {
  const { rows } = await sql`
    update job_work set lease_expires_at = now() + ${leaseMs} * interval '1 millisecond'
     where job_id = ${jobId} and worker = ${worker} and status = 'running'
    returning job_id`.execute(db)
  return rows.length > 0
}

/** Puts a job back in the queue (interrupted by a shutdown, or a row whose job is queued again). */
export async function releaseWork(db: Kysely<WorkTables>, jobId: number, worker: string | null): Promise<void> {
  await sql`
    update job_work set status = 'queued', worker = null, lease_expires_at = null
     where job_id = ${jobId} ${worker === null ? sql`` : sql`and worker = ${worker}`}`.execute(db)
}

/** Forgets a finished job (by `worker`, or whoever holds it when null). */
export async function removeWork(db: Kysely<WorkTables>, jobId: number, worker: string | null = null): Promise<void> {
  await sql`delete from job_work where job_id = ${jobId} ${worker === null ? sql`` : sql`and worker = ${worker}`}`.execute(db)
}

/** Running jobs whose lease ran out: nobody is heart-beating them. */
export async function staleWork(db: Kysely<WorkTables>, limit: number): Promise<{ job_id: number; worker: string | null }[]> {
  const { rows } = await sql<{ job_id: string | number; worker: string | null }>`
    select job_id, worker from job_work
     where status = 'running' and lease_expires_at < now()
     order by lease_expires_at
     limit ${limit}`.execute(db)
  return rows.map((r) => ({ job_id: Number(r.job_id), worker: r.worker }))
}
