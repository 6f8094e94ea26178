import { z } from 'zod'
import { loadJob } from '../../commands/jobs/job.js'
import { Id, Month } from '../../domain/shared/values.js'
import { jobMonths, jobsProgress, jobView } from '../../projections/jobs/queries.js'
import { requireOrgId } from '../caller.js'
import { ApiError } from '../errors.js'
import { rpc } from '../registry.js'

const domain = 'jobs'

const JobId = Id.describe('The job id (POST /api/v1/jobs answered it)')

/** The job record, as GET /api/v1/jobs/<id> shows it (that path is the record's read: no get_job RPC, whose name the SDK's job helper and the REST operation already use). */
export const JobRecord = z.object({
  job_id: Id.describe('The job id'),
  kind: z.string().describe('The job kind'),
  client_id: Id.nullable().describe('The target client; null for kinds about the organization (export_org)'),
  group_id: Id.nullable().describe('The target group (bulk_strategist); null otherwise'),
  status: z
    .enum(['queued', 'running', 'done', 'failed', 'cancelled'])
    .describe('queued, running, done, failed or cancelled (the last three are final)'),
  status_url: z.string().describe('The poll URL, relative to the base URL'),
  cancel_requested: z.boolean().describe('A cancel was asked for; a running job ends cancelled at its next check'),
  attempts: z.number().int().describe('Starts so far (a job interrupted by a graceful shutdown is resumed as the next attempt)'),
  created_at: z.string().describe('When it was requested (ISO 8601)'),
  started_at: z.string().nullable().describe('When a worker last started it'),
  finished_at: z.string().nullable().describe('When it finished'),
  progress: z
    .object({ done: z.number(), total: z.number(), percent: z.number(), message: z.string().nullable() })
    .optional()
    .describe('Present while running: units done of total, percent, and what it is doing'),
  result: z.record(z.string(), z.unknown()).optional().describe("Present when done: the kind's result"),
  error: z.string().optional().describe('Present when failed: why'),
  failure_reason: z.string().optional().describe('Present when failed: error (the job itself failed) or watchdog (its worker stopped)'),
})

export const jobRpcs = [
  rpc({
    name: 'is_job_cancel_requested',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "Whether a cancel was requested for the job (true also once it is cancelled). Read from the job's own event stream, so a cancel made a moment ago is seen at once.",
    example: { params: { job_id: 77 }, result: false },
    params: z.strictObject({ job_id: JobId }),
    result: z.boolean(),
    handler: async ({ params, orgId, write }) => {
      const { state, orgId: owner } = await loadJob(write, params.job_id)
      if (!state.exists || (orgId !== null && owner !== orgId)) throw new ApiError('not_found', `job ${params.job_id} not found`)
      return state.cancelRequested || state.status === 'cancelled'
    },
  }),
  rpc({
    name: 'get_jobs_progress_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's active jobs (queued, running) and those finished in the last recent_minutes (default 60), newest first, each a job record with progress while running (at most 500).",
    example: { params: { recent_minutes: 120 } },
    params: z.strictObject({
      recent_minutes: z
        .number()
        .int()
        .min(0)
        .max(10_080)
        .default(60)
        .describe('Also list jobs finished this many minutes ago or less (0: active jobs only; at most a week)'),
    }),
    result: z.array(JobRecord),
    handler: async ({ params, orgId, read, write }) =>
      (await jobsProgress(read, requireOrgId(orgId), params.recent_minutes, write.clock())).map(jobView),
  }),
  rpc({
    name: 'list_job_months_for_org',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The months (UTC, YYYY-MM) in which the organization requested jobs, newest first, with how many and how they ended.',
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(
      z.object({
        month: Month.describe('YYYY-MM (UTC)'),
        jobs: z.number().int().describe('Jobs requested that month'),
        done: z.number().int().describe('Of them, done'),
        failed: z.number().int().describe('Of them, failed'),
        cancelled: z.number().int().describe('Of them, cancelled'),
      }),
    ),
    handler: async ({ orgId, read }) => jobMonths(read, requireOrgId(orgId)),
  }),
]
