import { z } from 'zod'
import { Id } from '../shared/values.js'

/**
 * An organization export file: stream `org_export-<job_id>` (one export_org job produces at most one file,
 * so the job id names it). Produced when the zip is stored; expired when the retention rule says so and
 * the file is deleted. list_org_exports is the projection of these two events.
 */
export const OrgExportProduced = z.object({
  job_id: Id,
  org_id: Id,
  filename: z.string().min(1).max(200),
  /** Where the zip lives in the blob store (exports/<org_id>/<filename>). */
  path: z.string().min(1).max(1000),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  tables: z.number().int().nonnegative(),
  rows: z.number().int().nonnegative(),
  /** The read models' checkpoint position the export reflects (null: nothing projected yet). */
  position: z.string().nullable(),
  created_at: z.string().datetime(),
  expires_at: z.string().datetime(),
})

/** The export passed its retention and its file was deleted. */
export const OrgExportExpired = z.object({
  job_id: Id,
  org_id: Id,
  filename: z.string().min(1).max(200),
})

export const orgExportEventSchemas = { OrgExportProduced, OrgExportExpired } as const

export type OrgExportEvent =
  | { type: 'OrgExportProduced'; data: z.infer<typeof OrgExportProduced> }
  | { type: 'OrgExportExpired'; data: z.infer<typeof OrgExportExpired> }
