import { occurredAt, type ProjectedEvent, type Projector } from '../../projector.js'
import type { ReadDb } from '../../tables.js'
import { eachEvent } from '../../each-event.js'

interface FiledData {
  client_id: number
  month: string
  files: { path: string; content_type: string; bytes: number; sha256: string }[]
}

/**
 * aeo_reports: one row per filed file, keyed (client_id, month, path). Filing a month again replaces the
 * row (same path) with the latest filing's size, digest and time; re-applying an event writes the same
 * values, so the projector is idempotent.
 */
async function reportFiled(db: ReadDb, event: ProjectedEvent): Promise<void> {
  const data = event.data as FiledData
  const orgId = event.metadata?.org_id
  if (typeof orgId !== 'number' || data.files.length === 0) return
  const at = occurredAt(event)
  await db
    .insertInto('aeo_reports')
    .values(
      data.files.map((f) => ({
        client_id: data.client_id,
        month: data.month,
        org_id: orgId,
        path: f.path,
        content_type: f.content_type,
        bytes: f.bytes,
        sha256: f.sha256,
        filed_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['client_id', 'month', 'path']).doUpdateSet((eb) => ({
        org_id: eb.ref('excluded.org_id'),
        content_type: eb.ref('excluded.content_type'),
        bytes: eb.ref('excluded.bytes'),
        sha256: eb.ref('excluded.sha256'),
        filed_at: eb.ref('excluded.filed_at'),
      })),
    )
    .execute()
}

export const aeoReportsProjector: Projector = eachEvent({ name: 'aeo_reports', handlers: { AeoReportFiled: reportFiled } })
