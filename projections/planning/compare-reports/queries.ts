import type { Selectable } from 'kysely'
import type { CompareSummary } from '../../../domain/planning/compare-reports/events.js'
import { NotFoundError } from '../../../domain/shared/errors.js'
import type { ReadDb } from '../../tables.js'
import type { CompareReportsTable } from './tables.js'

/** A compare report as the API shows it. */
export interface CompareReportView {
  report_id: number
  client_id: number
  month: string
  against_month: string
  path: string
  /** Where the page downloads from (relative to the service's base URL). */
  url: string
  content_type: string
  bytes: number
  sha256: string
  summary: CompareSummary
  created_at: string
  filed_at: string
}

/** Where a filed file is downloaded (relative to the service's base URL). */
export const fileUrl = (path: string) => `/api/v1/files/${path}`

export function compareReportView(row: Selectable<CompareReportsTable>): CompareReportView {
  return {
    report_id: Number(row.id),
    client_id: Number(row.client_id),
    month: row.month,
    against_month: row.against_month,
    path: row.path,
    url: fileUrl(row.path),
    content_type: row.content_type,
    bytes: row.bytes,
    sha256: row.sha256,
    summary: row.summary,
    created_at: row.created_at.toISOString(),
    filed_at: row.filed_at.toISOString(),
  }
}

/** A report visible in `orgId` (null: any); another organization's answers like a missing one. */
export async function visibleCompareReport(db: ReadDb, orgId: number | null, reportId: number): Promise<CompareReportView> {
  let query = db.selectFrom('compare_reports').selectAll().where('id', '=', reportId)
  if (orgId !== null) query = query.where('org_id', '=', orgId)
  const row = await query.executeTakeFirst()
  if (!row) throw new NotFoundError('compare report', reportId)
  return compareReportView(row)
}

/** A client's report of a month, if filed. */
export async function compareReportOfMonth(db: ReadDb, clientId: number, month: string): Promise<CompareReportView | null> {
  const row = await db
    .selectFrom('compare_reports')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('month', '=', month)
    .executeTakeFirst()
  return row ? compareReportView(row) : null
}

/** The organization's reports, the latest filed first. */
export async function compareReportsOfOrg(
  db: ReadDb,
  orgId: number,
  page: { limit: number; offset: number },
): Promise<CompareReportView[]> {
  const rows = await db
    .selectFrom('compare_reports')
    .selectAll()
    .where('org_id', '=', orgId)
    .orderBy('filed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
  return rows.map(compareReportView)
}
