import { fileCompareReport } from '../../../commands/planning/compare-reports.js'
import type { CommandContext, WriteDeps } from '../../../commands/command-handler.js'
import type { Position } from '../../../commands/event-store/port.js'
import type { BlobStore } from '../../../commands/files/blob-store.js'
import { renderCompareReportHtml } from '../../../domain/planning/compare-reports/html.js'
import type { ClientRow } from '../../clients/queries.js'
import type { ReadDb } from '../../tables.js'
import { loadCompareReportInput } from './report-data.js'

/**
 * Gathers a client's month against another, renders the page and files it: what create_compare_report,
 * the autopilot job and the sandbox seed share. The client was checked visible by the caller; the command
 * checks it again (writable, in the caller's organization).
 */
export async function createCompareReport(
  read: ReadDb,
  write: WriteDeps,
  blobs: BlobStore,
  context: CommandContext,
  input: { client: ClientRow; callerOrgId: number | null; month: string; againstMonth: string },
): Promise<{ reportId: number; position: Position | null }> {
  const page = await loadCompareReportInput(read, input.client, input.month, input.againstMonth, write.clock())
  const filed = await fileCompareReport(write, blobs, context, {
    clientId: input.client.id,
    callerOrgId: input.callerOrgId,
    month: input.month,
    againstMonth: input.againstMonth,
    html: renderCompareReportHtml(page),
    summary: page.summary,
  })
  return { reportId: filed.reportId, position: filed.position }
}
