import {
  COMPARE_REPORT_CONTENT_TYPE,
  compareReportPath,
  compareReports,
  type CompareFiledFile,
} from '../../domain/planning/compare-reports/report.js'
import type { CompareSummary } from '../../domain/planning/compare-reports/events.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'
import type { BlobStore } from '../files/blob-store.js'

export interface FileCompareReportInput {
  readonly clientId: number
  /** The caller's organization (null: a platform caller); another organization's client answers 404. */
  readonly callerOrgId: number | null
  readonly month: string
  readonly againstMonth: string
  /** The rendered page (read side: projections/planning/compare-reports/report-data.ts + domain/…/html.ts). */
  readonly html: string
  readonly summary: CompareSummary
}

export interface FiledCompareReport {
  readonly reportId: number
  readonly files: readonly CompareFiledFile[]
  readonly position: Position | null
}

/**
 * Files a client's compare report for a month: the page goes to the blob store under
 * compare-reports/<org>/<client>/<month>.html (replacing an earlier filing of the month), then
 * CompareReportFiled is appended to `compare_reports-<client_id>` with the month's report id (its existing
 * one when the month was filed before). The file is written first, so a recorded filing always has its
 * file; if the append fails the new file is the month's latest and filing again records it.
 */
export async function fileCompareReport(
  deps: WriteDeps,
  blobs: BlobStore,
  context: CommandContext,
  input: FileCompareReportInput,
): Promise<FiledCompareReport> {
  const client = await writableClient(deps.store, input.clientId, input.callerOrgId)
  const orgId = client.orgId
  const path = compareReportPath(orgId, client.id, input.month)
  const info = await blobs.put(path, input.html, { orgId, contentType: COMPARE_REPORT_CONTENT_TYPE })
  const files: CompareFiledFile[] = [{ path: info.path, content_type: info.contentType, bytes: info.bytes, sha256: info.sha256 }]
  const fresh = await deps.ids.next('compare_report')
  const outcome = await handleCommand(deps, {
    aggregate: compareReports,
    id: client.id,
    command: {
      type: 'FileCompareReport',
      report_id: fresh,
      client_id: client.id,
      month: input.month,
      against_month: input.againstMonth,
      files,
      summary: input.summary,
    },
    context,
    orgId,
  })
  const event = outcome.events[0]
  const reportId = event?.type === 'CompareReportFiled' ? event.data.report_id : fresh
  return { reportId, files, position: outcome.position }
}
