import type { Aggregate } from '../../shared/aggregate.js'
import type { CompareReportEvent, CompareSummary } from './events.js'

/**
 * A client's compare reports: stream `compare_reports-<client_id>`. One report per client-month: filing a
 * month again keeps its report_id and replaces its file (the path is the month's), so the autopilot filing
 * the month's report after a crash, or a person asking again, never makes a second record of the month.
 */
export const compareReportsStream = (clientId: number) => `compare_reports-${clientId}`

/** Where a month's compare report lives in the blob store (and under /api/v1/files/). */
export const compareReportPath = (orgId: number, clientId: number, month: string) => `compare-reports/${orgId}/${clientId}/${month}.html`

export const COMPARE_REPORT_CONTENT_TYPE = 'text/html; charset=utf-8'

export interface CompareFiledFile {
  readonly path: string
  readonly content_type: string
  readonly bytes: number
  readonly sha256: string
}

export interface CompareReportsState {
  /** Month → its report's id. */
  readonly reports: Readonly<Record<string, number>>
}

export type CompareReportsCommand = {
  type: 'FileCompareReport'
  /** A freshly allocated id, used when the month has no report yet. */
  report_id: number
  client_id: number
  month: string
  against_month: string
  files: readonly CompareFiledFile[]
  summary: CompareSummary
}

/** The id a month's filing records: the month's existing report's, else the new one. */
export const reportIdFor = (state: CompareReportsState, month: string, fresh: number): number => state.reports[month] ?? fresh

export const compareReports: Aggregate<CompareReportsState, CompareReportsCommand, CompareReportEvent> = {
  streamOf: compareReportsStream,
  initialState: () => ({ reports: {} }),
  entity: 'compare report',

  evolve(state, event) {
    switch (event.type) {
      case 'CompareReportFiled':
        return { reports: { ...state.reports, [event.data.month]: event.data.report_id } }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'FileCompareReport':
        return [
          {
            type: 'CompareReportFiled',
            data: {
              report_id: reportIdFor(state, command.month, command.report_id),
              client_id: command.client_id,
              month: command.month,
              against_month: command.against_month,
              files: command.files.map((f) => ({ path: f.path, content_type: f.content_type, bytes: f.bytes, sha256: f.sha256 })),
              summary: command.summary,
            },
          },
        ]
    }
  },
}
