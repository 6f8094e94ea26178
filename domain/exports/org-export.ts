import type { Aggregate } from '../shared/aggregate.js'
import { assertNever } from '../shared/values.js'
import type { OrgExportEvent } from './events.js'

export const orgExportStream = (jobId: number) => `org_export-${jobId}`

/** Spec Limits: "Export file retention: 7 days". */
export const EXPORT_RETENTION_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

/** When an export produced at `createdAt` expires. */
export function exportExpiresAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + EXPORT_RETENTION_DAYS * DAY_MS)
}

/** Whether an export that expires at `expiresAt` is gone at `now` (the expiry instant itself is gone). */
export function isExportExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime()
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** `yyyymmddThhmmssZ` (UTC), the time stamp in export file names. */
export function compactUtc(at: Date): string {
  return `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}Z`
}

/**
 * The file name of a job's export: `org-<org_id>-<yyyymmddThhmmssZ>-job-<job_id>.zip`. The time is the
 * job's request time, so a re-run of the same job (attempt > 1) writes the same file instead of leaving
 * an orphan beside it.
 */
export function exportFilename(orgId: number, jobId: number, requestedAt: Date): string {
  return `org-${orgId}-${compactUtc(requestedAt)}-job-${jobId}.zip`
}

export const EXPORT_FILENAME = /^org-([1-9][0-9]{0,15})-[0-9]{8}T[0-9]{6}Z-job-([1-9][0-9]{0,15})\.zip$/

/** The blob-store path of an export, and the URL path it is downloaded from. */
export const exportPath = (orgId: number, filename: string) => `exports/${orgId}/${filename}`
export const exportDownloadUrl = (orgId: number, filename: string) => `/api/v1/exports/${orgId}/${filename}`

export interface ProducedExport {
  readonly job_id: number
  readonly org_id: number
  readonly filename: string
  readonly path: string
  readonly size: number
  readonly sha256: string
  readonly tables: number
  readonly rows: number
  readonly position: string | null
  readonly created_at: string
  readonly expires_at: string
}

export interface OrgExportState {
  readonly produced: ProducedExport | null
  readonly expired: boolean
}

export type OrgExportCommand = { type: 'RecordExport'; export: ProducedExport } | { type: 'ExpireExport'; now: Date }

/**
 * One export file. Recording is once per job (a re-run that finds its export recorded records nothing);
 * expiring is allowed only once the retention has passed, and only once. Both are no-ops when repeated,
 * so concurrent sweepers and re-run jobs are harmless.
 */
export const orgExport: Aggregate<OrgExportState, OrgExportCommand, OrgExportEvent> = {
  streamOf: orgExportStream,
  initialState: () => ({ produced: null, expired: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'OrgExportProduced':
        return { produced: event.data, expired: false }
      case 'OrgExportExpired':
        return { ...state, expired: true }
      default:
        return assertNever(event)
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RecordExport':
        if (state.produced) return []
        return [{ type: 'OrgExportProduced', data: { ...command.export } }]
      case 'ExpireExport': {
        const produced = state.produced
        if (!produced || state.expired) return []
        if (!isExportExpired(new Date(produced.expires_at), command.now)) return []
        return [{ type: 'OrgExportExpired', data: { job_id: produced.job_id, org_id: produced.org_id, filename: produced.filename } }]
      }
      default:
        return assertNever(command)
    }
  },
}
