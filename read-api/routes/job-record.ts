import { z } from 'zod'

/** A job as GET /api/v1/jobs/<id> answers it (projections/jobs/queries.ts jobView); documentation only. */
export const JobRecord = z.object({
  job_id: z.number().int().describe('The job id'),
  kind: z.string().describe('The job kind'),
  client_id: z.number().int().nullable().describe('The target client; null for kinds about the organization (export_org)'),
  group_id: z.number().int().nullable().describe('The target group (bulk_strategist), else null'),
  status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']).describe('queued, running, then done, failed or cancelled'),
  status_url: z.string().describe('This record (relative to the base URL)'),
  cancel_requested: z.boolean().describe('A cancel was asked for; a running job ends cancelled at its next check'),
  attempts: z.number().int().describe('Starts so far (a job interrupted by a graceful shutdown resumes with the next attempt)'),
  created_at: z.iso.datetime().describe('When it was requested'),
  started_at: z.iso.datetime().nullable().describe('When its current attempt started'),
  finished_at: z.iso.datetime().nullable().describe('When it ended'),
  progress: z
    .object({
      done: z.number().describe('Units done'),
      total: z.number().describe('Units in all'),
      percent: z.number().describe('done / total, 0 to 100'),
      message: z.string().nullable().describe('What it is doing'),
    })
    .optional()
    .describe('Present while running'),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Present when done. export_org: download_url and counts; prompted_edit: pages[] with edit_id'),
  error: z.string().optional().describe('Present when failed'),
  failure_reason: z
    .enum(['error', 'watchdog', 'unavailable'])
    .optional()
    .describe(
      'Present when failed: error (the job failed), watchdog (its worker stopped heart-beating), unavailable (its kind is not run here)',
    ),
})

export const JOB_RECORD_EXAMPLE = {
  job_id: 77,
  kind: 'export_org',
  client_id: null,
  group_id: null,
  status: 'done',
  status_url: '/api/v1/jobs/77',
  cancel_requested: false,
  attempts: 1,
  created_at: '2026-03-02T09:15:00.000Z',
  started_at: '2026-03-02T09:15:01.000Z',
  finished_at: '2026-03-02T09:15:09.000Z',
  result: { download_url: '/api/v1/exports/12/org-12-20260302T091509Z-job-77.zip', tables: 31, rows: 4820 },
}

export const JOB_RECORD_CANCELLED_EXAMPLE = {
  job_id: 78,
  kind: 'keyword_generation',
  client_id: 34,
  group_id: null,
  status: 'cancelled',
  status_url: '/api/v1/jobs/78',
  cancel_requested: true,
  attempts: 0,
  created_at: '2026-03-02T09:20:00.000Z',
  started_at: null,
  finished_at: '2026-03-02T09:20:04.000Z',
}
