import { loadStream } from '../../../commands/load-stream.js'
import { loadOrgExport, recordOrgExport } from '../../../commands/exports.js'
import { jobStream } from '../../../domain/jobs/job.js'
import { exportDownloadUrl, exportExpiresAt, exportFilename, exportPath, type ProducedExport } from '../../../domain/exports/org-export.js'
import { ExportCancelledError, writeOrgExport } from '../../exports/write-org-export.js'
import { JobCancelledError, type JobHandler } from '../handler.js'

/**
 * export_org: the organization's zip (processors/exports/write-org-export.ts) stored in the blob store at
 * exports/<org_id>/<filename>, then recorded (OrgExportProduced, which list_org_exports projects) and
 * kept 7 days. Result: {download_url, filename, size, tables, rows, expires_at}.
 *
 * Safe to re-run (attempt > 1): a job that already recorded its export returns it; otherwise the file name
 * comes from the job's request time, so a second attempt replaces the first attempt's file (if any got
 * stored before the interruption) instead of leaving an orphan beside it.
 */
export const exportOrgHandler: JobHandler<'export_org'> = async (ctx) => {
  const { job } = ctx
  const earlier = await loadOrgExport(ctx.write, job.jobId)
  if (earlier.produced) return resultOf(earlier.produced)

  // The request time from the job's own stream (not the read model, which may lag): the same on every attempt.
  const requested = (await loadStream(ctx.write, jobStream(job.jobId))).events[0]?.metadata?.occurred_at
  const filename = exportFilename(job.orgId, job.jobId, typeof requested === 'string' ? new Date(requested) : ctx.clock())
  const path = exportPath(job.orgId, filename)
  const createdAt = ctx.clock()
  const expiresAt = exportExpiresAt(createdAt)
  let written
  try {
    written = await writeOrgExport({
      db: ctx.db,
      blobs: ctx.blobs,
      orgId: job.orgId,
      jobId: job.jobId,
      path,
      createdAt,
      expiresAt,
      signal: ctx.signal,
      progress: (done, total, message) => ctx.progress(done, total, message),
      cancelRequested: () => ctx.cancelRequested(),
    })
  } catch (error) {
    if (error instanceof ExportCancelledError) throw new JobCancelledError()
    throw error
  }
  const produced: ProducedExport = {
    job_id: job.jobId,
    org_id: job.orgId,
    filename,
    path,
    size: written.info.bytes,
    sha256: written.info.sha256,
    tables: written.tables.length,
    rows: written.rows,
    position: written.position,
    created_at: createdAt.toISOString(),
    expires_at: expiresAt.toISOString(),
  }
  const recorded = await recordOrgExport(ctx.write, ctx.command, produced)
  await ctx.settle(recorded.position)
  ctx.log.info({ filename, size: produced.size, tables: produced.tables, rows: produced.rows }, 'export_org: stored')
  return resultOf(recorded.state.produced ?? produced)
}

function resultOf(p: ProducedExport): Record<string, unknown> {
  return {
    download_url: exportDownloadUrl(p.org_id, p.filename),
    filename: p.filename,
    size: p.size,
    tables: p.tables,
    rows: p.rows,
    created_at: p.created_at,
    expires_at: p.expires_at,
  }
}
