/**
 * The captures and tracker part of the realistic log (test/projections/helpers.ts): captures ingested,
 * tracked (opened, carried, resolved), an item status changed, items deleted and re-opened under the same
 * keys, questions merged, a client re-analyzed, raw records pruned, and a capture after the rebuild.
 */
import { DEFAULT_AEO_SETTINGS } from '../../commands/aeo/settings.js'
import { pruneExpiredRecords } from '../../processors/aeo/record-pruner.js'
import type { TestSystem } from '../support/system.js'
import { addQuestion, appendQuestionEvent, f } from '../http/aeo-captures-support.js'

export async function writeAeoCapturesLog(ts: TestSystem, org: { orgId: number; key: string }, clientIds: { plumbers: number; heaters: number }) {
  const { plumbers, heaters } = clientIds
  const call = ts.call
  const q1 = await addQuestion(ts, plumbers, org.orgId)
  const q2 = await addQuestion(ts, plumbers, org.orgId, { ...f.costQ, kind: 'cost' })
  const q3 = await addQuestion(ts, plumbers, org.orgId, { ...f.bestOf, kind: 'best-of', prompt: 'Best emergency plumber in Austin TX?' })
  const qh = await addQuestion(ts, heaters, org.orgId, { prompt: 'best water heater repair near me', service: 'Water heaters', location: '', kind: 'near-me' })
  const ingest = (client_id: number, query_id: number, engine: string, answer_text: string, citations: unknown[], month: string) =>
    call<number>('ingest_aeo_capture', { client_id, query_id, engine, answer_text, citations, month, record_json: { engine, answer_text } }, org.key)

  await ingest(plumbers, q1, 'claude', f.absent, f.absentCitations, '2026-09')
  await ingest(plumbers, q1, 'claude', f.namedLater, f.namedLaterCitations, '2026-10') // carries and resolves
  await ingest(plumbers, q2, 'openai', f.onlyCited, f.onlyCitedCitations, '2026-10')
  await ingest(plumbers, q3, 'gemini', f.absent, f.absentCitations, '2026-10')
  const items = await call<{ id: number }[]>('get_aeo_items', { client_id: plumbers }, org.key)
  await call('update_aeo_item_status', { client_id: plumbers, item_id: items[0]!.id, status: 'in_progress', note: 'on it' }, org.key)
  await call('update_aeo_item_status', { client_id: plumbers, item_id: items[1]!.id, status: 'done' }, org.key)

  await ingest(heaters, qh, 'claude', f.absent, f.absentCitations, '2026-10')
  await call('delete_aeo_items_for_client', { client_id: heaters }, org.key)
  await ingest(heaters, qh, 'claude', f.absent, f.absentCitations, '2026-11') // the same keys open new items

  await appendQuestionEvent(ts, plumbers, org.orgId, 'AeoQuestionsMerged', { client_id: plumbers, canonical_id: q1, merged_ids: [q3] })
  await call('reanalyze_aeo_client', { client_id: plumbers }, org.key)
  await pruneExpiredRecords({ write: ts.system.write, db: ts.system.database.db, aeo: { ...DEFAULT_AEO_SETTINGS, recordRetentionDays: 0 } })
  await ingest(plumbers, q1, 'openai', f.namedFirst, f.namedFirstCitations, '2026-11') // after the rebuild
}
