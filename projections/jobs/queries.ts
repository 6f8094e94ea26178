import { sql, type Selectable } from 'kysely'
import type { ReadDb } from '../tables.js'
import type { JobProgressValue, JobsTable } from './tables.js'

export type JobRow = Selectable<JobsTable>

/** The poll URL of a job (relative to the service's base URL, like every URL the API hands out). */
export const jobStatusUrl = (jobId: number) => `/api/v1/jobs/${jobId}`

/**
 * The job record as the API shows it (GET /api/v1/jobs/<id>, get_job, cancel). As the spec has it,
 * `progress` is present while running, `result` when done, `error` (and `failure_reason`) when failed.
 */
export interface JobView {
  job_id: number
  kind: string
  client_id: number | null
  group_id: number | null
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  status_url: string
  cancel_requested: boolean
  attempts: number
  created_at: string
  started_at: string | null
  finished_at: string | null
  progress?: JobProgressValue
  result?: Record<string, unknown>
  error?: string
  failure_reason?: string
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString())

export function jobView(row: JobRow): JobView {
  const view: JobView = {
    job_id: row.id,
    kind: row.kind,
    client_id: row.client_id,
    group_id: row.group_id,
    status: row.status as JobView['status'],
    status_url: jobStatusUrl(row.id),
    cancel_requested: row.cancel_requested,
    attempts: row.attempts,
    created_at: row.created_at.toISOString(),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
  }
  if (row.status === 'running' && row.progress) view.progress = row.progress
  if (row.status === 'done') view.result = row.result ?? {}
  if (row.status === 'failed') {
    view.error = row.error ?? 'failed'
    if (row.failure_reason) view.failure_reason = row.failure_reason
  }
  return view
}

/** A job visible in `orgId` (null: any organization, for platform callers). */
export async function findJob(db: ReadDb, orgId: number | null, jobId: number): Promise<JobRow | undefined> {
  let query = db.selectFrom('jobs').selectAll().where('id', '=', jobId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  return query.executeTakeFirst()
}

/** Active jobs of the organization, and those that finished in the last `recentMinutes`, newest first. */
export async function jobsProgress(db: ReadDb, orgId: number, recentMinutes: number, now: Date): Promise<JobRow[]> {
  const since = new Date(now.getTime() - recentMinutes * 60_000)
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', 'in', ['queued', 'running']), eb('finished_at', '>=', since)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute()
}

/** The months (UTC, YYYY-MM) the organization requested jobs in, newest first, with counts by outcome. */
export async function jobMonths(db: ReadDb, orgId: number) {
  return db
    .selectFrom('jobs')
    .select(sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM')`.as('month'))
    .select(sql<number>`count(*)::int`.as('jobs'))
    .select(sql<number>`count(*) filter (where status = 'done')::int`.as('done'))
    .select(sql<number>`count(*) filter (where status = 'failed')::int`.as('failed'))
    .select(sql<number>`count(*) filter (where status = 'cancelled')::int`.as('cancelled'))
    .where('org_id', '=', orgId)
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .execute()
}
