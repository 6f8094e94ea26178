import { eachEvent } from '../../each-event.js'
import { occurredAt, orgIdOf, type Projector } from '../../projector.js'

/**
 * compare_reports: one row per report. A month filed again carries the same report_id: the row takes the
 * latest filing's file, numbers and time and keeps its first filing's created_at. Re-applying an event
 * writes the same values, so the projector is idempotent.
 */
export const compareReportsProjector: Projector = eachEvent({
  name: 'compare_reports',
  handlers: {
    async CompareReportFiled(db, event) {
      const d = event.data
      const file = d.files[0]
      if (!file) return
      const at = occurredAt(event)
      const summary = JSON.stringify(d.summary)
      await db
        .insertInto('compare_reports')
        .values({
          id: d.report_id,
          client_id: d.client_id,
          org_id: orgIdOf(event),
          month: d.month,
          against_month: d.against_month,
          path: file.path,
          content_type: file.content_type,
          bytes: file.bytes,
          sha256: file.sha256,
          summary,
          created_at: at,
          filed_at: at,
        })
        .onConflict((oc) =>
          oc.column('id').doUpdateSet({
            against_month: d.against_month,
            path: file.path,
            content_type: file.content_type,
            bytes: file.bytes,
            sha256: file.sha256,
            summary,
            filed_at: at,
          }),
        )
        .execute()
    },
  },
})

/** The compare reports sub-area's projectors. */
export const compareReportsProjectors: readonly Projector[] = [compareReportsProjector]
