import { z } from 'zod'
import { Id, Month } from '../../shared/values.js'

/** A filed monthly report: stream `aeo_reports-<client_id>`. `files` are paths under /api/v1/files/. */
export const AeoReportFiled = z.object({
  client_id: Id,
  month: Month,
  files: z.array(z.object({ path: z.string(), content_type: z.string(), bytes: z.number().int().min(0), sha256: z.string() })),
})

export const aeoReportEventSchemas = { AeoReportFiled } as const
export type AeoReportEvent = { type: 'AeoReportFiled'; data: z.infer<typeof AeoReportFiled> }
