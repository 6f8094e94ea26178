import { sql } from 'kysely'
import type { Projector } from '../../projector.js'
import { occurredAt } from '../../projector.js'

/**
 * aeo_captures: one row per captured answer with its current report. The raw record is not here (it is in
 * the aeo_capture_records work table); only its size and whether it was pruned.
 */
export const aeoCapturesProjector: Projector = {
  name: 'aeo_captures',
  handlers: {
    async AeoCaptureIngested(db, event) {
      const d = event.data
      await db
        .insertInto('aeo_captures')
        .values({
          id: d.capture_id,
          client_id: d.client_id,
          org_id: event.metadata.org_id,
          query_id: d.query_id,
          engine: d.engine,
          month: d.month,
          run_id: d.run_id,
          answer_text: d.answer_text,
          citations: JSON.stringify(d.citations),
          retrieved: JSON.stringify(d.retrieved),
          model: d.model,
          surface: d.surface,
          searched: d.searched,
          analysis_version: d.analysis_version,
          report_json: JSON.stringify(d.report),
          record_bytes: d.record_bytes,
          record_pruned_at: null,
          captured_at: occurredAt(event),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async AeoCaptureReanalyzed(db, event) {
      const d = event.data
      await db
        .updateTable('aeo_captures')
        .set({ analysis_version: d.analysis_version, report_json: JSON.stringify(d.report) })
        .where('id', '=', d.capture_id)
        .execute()
    },
    async AeoCaptureRecordPruned(db, event) {
      await db
        .updateTable('aeo_captures')
        .set({ record_pruned_at: sql`coalesce(record_pruned_at, ${occurredAt(event)})` })
        .where('id', '=', event.data.capture_id)
        .execute()
    },
    async AeoQuestionsMerged(db, event) {
      const d = event.data
      await db
        .updateTable('aeo_captures')
        .set({ query_id: d.canonical_id })
        .where('client_id', '=', d.client_id)
        .where('query_id', 'in', d.merged_ids)
        .execute()
    },
  },
}
