/**
 * KeywordAdded v1 → v2 (domain/keywords/upcasters.ts): a log that holds keywords added as v1 (written raw,
 * schema_version 1 in their metadata, no intent) and as v2, rebuilt, gives the read models that the same
 * facts all written as v2 give; add_keyword writes v2; and decode lifts a v1 event to v2 with intent null.
 */
import t from 'tap'
import { decode } from '../../commands/event-store/decode.js'
import type { NewEvent, RecordedEvent } from '../../commands/event-store/port.js'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import { rebuildReadModels } from '../../projections/rebuild.js'
import { createOrgWithKey, startTestSystem } from '../support/system.js'
import { dumpSchema, projectOnce, readLog, waitForCatchUp } from './helpers.js'

/** The schema_version the event was recorded with. */
const versionOf = (event: RecordedEvent) => (event.metadata as { schema_version?: number }).schema_version

const OMIT = { projection_checkpoint: ['updated_at', 'position', 'events_applied'] }

function keywordAdded(orgId: number, clientId: number, keywordId: number, keyword: string, version: 1 | 2, at: string): NewEvent {
  const v1 = {
    client_id: clientId,
    keyword_id: keywordId,
    keyword,
    keyword_key: keyword.toLowerCase(),
    source: 'manual',
    service: '',
    location: 'Austin, TX',
  }
  return {
    type: 'KeywordAdded',
    data: version === 1 ? v1 : { ...v1, intent: null },
    metadata: {
      org_id: orgId,
      actor: { kind: 'system', id: 'test' },
      correlation_id: `c-${keywordId}`,
      causation_id: null,
      request_id: null,
      occurred_at: at,
      schema_version: version,
    },
  }
}

t.test('a log with v1 and v2 KeywordAdded rebuilds to the read models of the same facts all as v2', async (t) => {
  const ts = await startTestSystem(t)
  const { orgId, key } = await createOrgWithKey(ts)
  const clientId = await ts.call<number>('add_client', { client: { name: 'Plumbers', website_url: 'https://p.example.com' } }, key)
  const store = ts.system.store
  const stream = `keywords-${clientId}`
  // Ids far above the sequence's, so add_keyword below cannot collide with them.
  await store.append(
    stream,
    [
      keywordAdded(orgId, clientId, 9001, 'Drain cleaning', 1, '2026-01-02T10:00:00.000Z'),
      keywordAdded(orgId, clientId, 9002, 'Leak repair', 1, '2026-01-03T10:00:00.000Z'),
    ],
    'any',
  )
  await store.append(stream, [keywordAdded(orgId, clientId, 9003, 'Water heaters', 2, '2026-01-04T10:00:00.000Z')], 'any')
  await store.append(
    stream,
    [
      {
        type: 'KeywordDeleted',
        data: { client_id: clientId, keyword_id: 9001 },
        metadata: { org_id: orgId, occurred_at: '2026-01-05T10:00:00.000Z', schema_version: 1 },
      },
    ],
    'any',
  )
  const added = await ts.call<number>('add_keyword', { keyword: { client_id: clientId, keyword: 'Sump pumps' } }, key)
  t.ok(added > 0, 'add_keyword answers')

  const log = await readLog(store, ts.system.database.db)
  const keywordEvents = log.filter((e) => e.type === 'KeywordAdded')
  t.same(
    keywordEvents.map((e) => versionOf(e)),
    [1, 1, 2, 2],
    'the log holds v1 and v2 events; add_keyword wrote v2',
  )
  t.same((keywordEvents.at(-1)!.data as { intent: unknown }).intent, null, 'a v2 event carries its intent')
  const lifted = decode(keywordEvents[0]!)
  t.match(
    lifted,
    { type: 'KeywordAdded', data: { keyword_id: 9001, intent: null }, metadata: { schema_version: 2 } },
    'decode lifts v1 to v2',
  )

  // The same facts, every KeywordAdded as v2 (what the upcaster must make of the v1 ones).
  const allV2: RecordedEvent[] = log.map((e) =>
    e.type === 'KeywordAdded' && versionOf(e) === 1
      ? { ...e, data: { ...(e.data as object), intent: null }, metadata: { ...(e.metadata as object), schema_version: 2 } }
      : e,
  )
  const expected = await projectOnce(ts.system.database.db, 'kw_all_v2', allV2, OMIT)
  t.equal(expected.keywords!.length, 4, 'four keywords')
  t.match(
    expected.keywords!.find((k) => k.id === 9001),
    { status: 'deleted', location: 'Austin, TX' },
    'a v1 keyword, deleted',
  )

  await waitForCatchUp(store, ts.system.database.db)
  t.same(await dumpSchema(ts.system.database.db, LIVE_SCHEMA, OMIT), expected, 'the live runner read the mixed log to the same rows')
  await rebuildReadModels({ store, db: ts.system.database.db, projectors, group: MAIN_GROUP, progressEveryMs: 60_000 })
  t.same(await dumpSchema(ts.system.database.db, LIVE_SCHEMA, OMIT), expected, 'a rebuild of the mixed log gives the same rows')
})
