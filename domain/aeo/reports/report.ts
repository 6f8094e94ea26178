import type { Aggregate } from '../../shared/aggregate.js'
import type { AeoReportEvent } from './events.js'

/**
 * A client's filed reports: stream `aeo_reports-<client_id>`. Filing is always recorded (filing a month
 * again replaces its file and is a new event, so subscribers hear about every filing); the state only
 * remembers what was filed, for history and point-in-time reads.
 */
export const aeoReportsStream = (clientId: number) => `aeo_reports-${clientId}`

/** Where a month's report lives in the blob store (and under /api/v1/files/). */
export const reportPath = (orgId: number, clientId: number, month: string) => `aeo-reports/${orgId}/${clientId}/${month}.html`

export const REPORT_CONTENT_TYPE = 'text/html; charset=utf-8'

export interface FiledFile {
  readonly path: string
  readonly content_type: string
  readonly bytes: number
  readonly sha256: string
}

export interface AeoReportsState {
  /** Month → the files of its latest filing. */
  readonly filed: Readonly<Record<string, readonly FiledFile[]>>
  readonly filings: number
}

export type AeoReportsCommand = { type: 'FileReport'; client_id: number; month: string; files: readonly FiledFile[] }

export const aeoReports: Aggregate<AeoReportsState, AeoReportsCommand, AeoReportEvent> = {
  streamOf: aeoReportsStream,
  initialState: () => ({ filed: {}, filings: 0 }),

  evolve(state, event) {
    switch (event.type) {
      case 'AeoReportFiled':
        return { filed: { ...state.filed, [event.data.month]: event.data.files }, filings: state.filings + 1 }
    }
  },

  decide(command) {
    switch (command.type) {
      case 'FileReport':
        return [
          {
            type: 'AeoReportFiled',
            data: {
              client_id: command.client_id,
              month: command.month,
              files: command.files.map((f) => ({ path: f.path, content_type: f.content_type, bytes: f.bytes, sha256: f.sha256 })),
            },
          },
        ]
    }
  },
}
