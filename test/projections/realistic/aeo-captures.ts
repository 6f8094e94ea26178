import { DEFAULT_AEO_SETTINGS } from '../../../commands/aeo/settings.js'
import { promptKey } from '../../../domain/aeo/prompt.js'
import { pruneExpiredRecords } from '../../../processors/aeo/record-pruner.js'
import { appendQuestionEvent, f } from '../../http/aeo-captures-support.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The AI Visibility captures part of the realistic log: every write RPC of the part, through HTTP, on the
 * clients of `log` (keys: platform key unless given), including no-op repeats and foreign-org attempts.
 * Captures ingested and tracked (opened, carried, resolved), item statuses changed, items deleted and
 * re-opened under the same keys, a captured duplicate question merged (re-pointing captures and hits),
 * a client re-analyzed, raw records pruned, and a capture after the rebuild.
 */
export async function writeAeoCapturesLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters] = log.clientIds as [number, number]
  const [orgA] = log.orgIds as [number]
  const live = (client_id: number) => call<{ id: number; prompt: string; active: boolean }[]>('get_aeo_queries', { client_id }, keys.orgA)
  const [q1, q2] = (await live(plumbers)).filter((q) => q.active)
  const [qh] = (await live(heaters)).filter((q) => q.active)
  const ingest = (client_id: number, query_id: number, engine: string, answer_text: string, citations: unknown[], month: string) =>
    call<number>(
      'ingest_aeo_capture',
      { client_id, query_id, engine, answer_text, citations, month, record_json: { engine, answer_text } },
      keys.orgA,
    )

  await ingest(plumbers, q1!.id, 'claude', f.absent, f.absentCitations, '2026-09')
  await ingest(plumbers, q1!.id, 'claude', f.namedLater, f.namedLaterCitations, '2026-10') // carries and resolves
  await ingest(plumbers, q2!.id, 'openai', f.onlyCited, f.onlyCitedCitations, '2026-10')
  await call(
    'ingest_aeo_capture',
    { client_id: plumbers, query_id: q2!.id, engine: 'gemini', answer_text: f.table, citations: ['https://www.yelp.com/x'] },
    keys.orgA,
  )
  const foreign = await ts.rpc(
    'ingest_aeo_capture',
    { client_id: plumbers, query_id: q1!.id, engine: 'claude', answer_text: 'x' },
    keys.orgB,
  )
  if (foreign.statusCode !== 404) throw new Error(`a foreign ingest answered ${foreign.statusCode}`)

  const items = await call<{ id: number }[]>('get_aeo_items', { client_id: plumbers }, keys.orgA)
  await call('update_aeo_item_status', { client_id: plumbers, item_id: items[0]!.id, status: 'in_progress', note: 'on it' }, keys.orgA)
  await call('update_aeo_item_status', { client_id: plumbers, item_id: items[0]!.id, status: 'in_progress', note: 'on it' }, keys.orgA) // no change
  await call('update_aeo_item_status', { client_id: plumbers, item_id: items[1]!.id, status: 'done' })

  await ingest(heaters, qh!.id, 'claude', f.absent, f.absentCitations, '2026-10')
  await call('delete_aeo_items_for_client', { client_id: heaters }, keys.orgA)
  await call('delete_aeo_items_for_client', { client_id: heaters }, keys.orgA) // nothing left
  await ingest(heaters, qh!.id, 'claude', f.absent, f.absentCitations, '2026-11') // the same keys open new items

  // A duplicate of q1 recorded under an older normalization, captured, then merged into q1.
  const dup = await ts.system.write.ids.next('aeo_query')
  await appendQuestionEvent(ts, plumbers, orgA, 'AeoQuestionAdded', {
    client_id: plumbers,
    query_id: dup,
    prompt: q1!.prompt.toUpperCase(),
    prompt_key: `${promptKey(q1!.prompt)} (an older key)`,
    engine: 'gemini',
    service: '',
    location: '',
    kind: 'custom',
    priority: 40,
    active: true,
    source: 'manual',
  })
  await ingest(plumbers, dup, 'gemini', f.absent, f.absentCitations, '2026-10')
  await call('dedupe_aeo_queries', { client_id: plumbers }, keys.orgA)

  await call('reanalyze_aeo_client', { client_id: plumbers }, keys.orgA)
  await pruneExpiredRecords({ write: ts.system.write, db: ts.system.database.db, aeo: { ...DEFAULT_AEO_SETTINGS, recordRetentionDays: 0 } })
  await ingest(plumbers, q1!.id, 'openai', f.namedFirst, f.namedFirstCitations, '2026-11') // after the rebuild
}
