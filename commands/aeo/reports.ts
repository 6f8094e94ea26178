import { aeoReports, REPORT_CONTENT_TYPE, reportPath, type FiledFile } from '../../domain/aeo/reports/report.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import type { BlobStore } from '../files/blob-store.js'

export interface FileReportInput {
  readonly orgId: number
  readonly clientId: number
  readonly month: string
  /** The rendered page (read side: projections/aeo/reports/report-data.ts + domain/aeo/reports/html.ts). */
  readonly html: string
}

/**
 * Files a month's report: the page goes to the blob store under aeo-reports/<org>/<client>/<month>.html
 * (replacing an earlier filing), then AeoReportFiled is appended to `aeo_reports-<client_id>` (the
 * aeo.report.saved webhook). The file is written first, so a recorded filing always has its file; if the
 * append fails the new file is simply the month's latest and filing again records it.
 */
export async function fileReport(
  deps: WriteDeps,
  blobs: BlobStore,
  context: CommandContext,
  input: FileReportInput,
): Promise<{ month: string; files: FiledFile[]; position: Position | null }> {
  const path = reportPath(input.orgId, input.clientId, input.month)
  const info = await blobs.put(path, input.html, { orgId: input.orgId, contentType: REPORT_CONTENT_TYPE })
  const files: FiledFile[] = [{ path: info.path, content_type: info.contentType, bytes: info.bytes, sha256: info.sha256 }]
  const outcome = await handleCommand(deps, {
    aggregate: aeoReports,
    id: input.clientId,
    command: { type: 'FileReport', client_id: input.clientId, month: input.month, files },
    context,
    orgId: input.orgId,
  })
  return { month: input.month, files, position: outcome.position }
}
