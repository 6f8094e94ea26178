import { sql } from 'kysely'
import type { RecordedEvent } from '../../../commands/event-store/port.js'
import type { Projector } from '../../projector.js'
import { occurredAt } from '../../projector.js'
import type { ReadDb } from '../../tables.js'
import { refreshSummaryMonths, type TouchedMonth } from './summary-months.js'
import { addToSummary, dropEmptyTotals, subtractFromSummary } from './summary-totals.js'

/** A change of captures: its writes, and the months whose get_aeo_summary totals it may have changed. */
type CaptureChange = (db: ReadDb, event: RecordedEvent) => Promise<readonly TouchedMonth[]>

const changes: Record<string, CaptureChange> = {
  async AeoCaptureIngested(db, event) {
    const d = event.data
    const inserted = await db
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
      .returning('id')
      .executeTakeFirst()
    // A redelivered ingest inserts nothing, so it must count nothing.
    if (!inserted) return []
    await addToSummary(db, { captureId: d.capture_id })
    return [{ clientId: d.client_id, month: d.month }]
  },
  async AeoCaptureReanalyzed(db, event) {
    const d = event.data
    const capture = await db.selectFrom('aeo_captures').select(['client_id', 'month']).where('id', '=', d.capture_id).executeTakeFirst()
    if (!capture) return []
    await subtractFromSummary(db, { captureId: d.capture_id })
    await db
      .updateTable('aeo_captures')
      .set({ analysis_version: d.analysis_version, report_json: JSON.stringify(d.report) })
      .where('id', '=', d.capture_id)
      .execute()
    await addToSummary(db, { captureId: d.capture_id })
    await dropEmptyTotals(db, capture.client_id)
    return [{ clientId: capture.client_id, month: capture.month }]
  },
  async AeoCaptureRecordPruned(db, event) {
    await db
      .updateTable('aeo_captures')
      .set({ record_pruned_at: sql`coalesce(record_pruned_at, ${occurredAt(event)})` })
      .where('id', '=', event.data.capture_id)
      .execute()
    return []
  },
  async AeoQuestionsMerged(db, event) {
    const d = event.data
    if (d.merged_ids.length === 0) return []
    // The canonical question's captures are taken out too, so adding its captures back counts each once.
    await subtractFromSummary(db, { clientId: d.client_id, queryIds: [...d.merged_ids, d.canonical_id] })
    await db
      .updateTable('aeo_captures')
      .set({ query_id: d.canonical_id })
      .where('client_id', '=', d.client_id)
      .where('query_id', 'in', d.merged_ids)
      .execute()
    await addToSummary(db, { clientId: d.client_id, queryIds: [d.canonical_id] })
    await dropEmptyTotals(db, d.client_id)
    // Captures keep their months; which of the client's months held the merged questions is not known here.
    return [{ clientId: d.client_id, month: null }]
  },
}

/**
 * aeo_captures: one row per captured answer with its current report. The raw record is not here (it is in
 * the aeo_capture_records work table); only its size and whether it was pruned. The get_aeo_summary totals
 * (aeo_summary_*) follow every change of a row's client, month, question, engine or report: the counts and
 * competitors per change (summary-totals.ts), the per-month rows the summary reads once per event or, for a
 * batch, once after all of its events (summary-months.ts), which leaves the same rows.
 */
export const aeoCapturesProjector: Projector = {
  name: 'aeo_captures',
  handlers: Object.fromEntries(
    Object.entries(changes).map(([type, change]) => [type, async (db: ReadDb, event: RecordedEvent) => refreshSummaryMonths(db, await change(db, event))]),
  ),
  async applyBatch(db, events) {
    const touched: TouchedMonth[] = []
    for (const event of events) {
      const change = changes[event.type]
      if (change) touched.push(...(await change(db, event)))
    }
    await refreshSummaryMonths(db, touched)
  },
}
