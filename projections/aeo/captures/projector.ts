import { handlerOf, typesOf, type EventMap } from '../../each-event.js'
import { occurredAt, orgIdOf, type EventOf, type Projector } from '../../projector.js'
import { sql } from 'kysely'
import type { ReadDb } from '../../tables.js'
import { inChunks, inStretches } from '../../stretches.js'
import { refreshSummaryMonths, type TouchedMonth } from './summary-months.js'
import { addToSummary, dropEmptyTotals, subtractFromSummary } from './summary-totals.js'

/** Rows per insert: 18 parameters each (see inChunks), and few enough that a statement's report texts stay a few MB. */
const INGEST_CHUNK = 500

/**
 * AeoCaptureIngested × n, in log order: their rows in one insert per chunk, then the inserted ones added to
 * the summary totals in one pass. A capture already there (a redelivery, or the same event twice in the
 * stretch) inserts nothing and so counts nothing, exactly as the events applied one by one.
 */
async function ingest(db: ReadDb, events: readonly EventOf<'AeoCaptureIngested'>[]): Promise<TouchedMonth[]> {
  const touched: TouchedMonth[] = []
  for (const chunk of inChunks(events, INGEST_CHUNK)) {
    const inserted = await db
      .insertInto('aeo_captures')
      .values(
        chunk.map((event) => {
          const d = event.data
          return {
            id: d.capture_id,
            client_id: d.client_id,
            org_id: orgIdOf(event),
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
          }
        }),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning(['id', 'client_id', 'month'])
      .execute()
    await addToSummary(db, { captureIds: inserted.map((r) => r.id) })
    touched.push(...inserted.map((r) => ({ clientId: r.client_id, month: r.month })))
  }
  return touched
}

/** The other changes of captures: their writes, and the months whose get_aeo_summary totals they may have changed. */
const changes: EventMap<readonly TouchedMonth[]> = {
  async AeoCaptureReanalyzed(db, event) {
    const d = event.data
    const capture = await db.selectFrom('aeo_captures').select(['client_id', 'month']).where('id', '=', d.capture_id).executeTakeFirst()
    if (!capture) return []
    await subtractFromSummary(db, { captureIds: [d.capture_id] })
    await db
      .updateTable('aeo_captures')
      .set({ analysis_version: d.analysis_version, report_json: JSON.stringify(d.report) })
      .where('id', '=', d.capture_id)
      .execute()
    await addToSummary(db, { captureIds: [d.capture_id] })
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
 * competitors per change (summary-totals.ts), the per-month rows the summary reads once after all of a
 * batch's events (summary-months.ts), which leaves the rows refreshing them after each event would. A batch
 * inserts and counts each stretch of ingests together (a rebuild meets thousands of them per page).
 */
export const aeoCapturesProjector: Projector = {
  name: 'aeo_captures',
  // Standalone: it reads only its own tables, and only the sandbox reset (listed after it) touches them.
  standalone: true,
  handles: ['AeoCaptureIngested', ...typesOf(changes)],
  async apply(db, events) {
    const touched = await inStretches(
      events,
      'AeoCaptureIngested',
      (stretch) => ingest(db, stretch),
      async (event) => (await handlerOf(changes, event)?.(db, event)) ?? [],
    )
    await refreshSummaryMonths(db, touched.flat())
  },
}
