/**
 * The tracker through the RPCs: findings become items with query_ids and hits per month; a second capture
 * carries and resolves; items ordered tier A→X then title; status changes; deletion; re-analysis keeping
 * statuses and notes; merged questions re-pointed; another client's or organization's item is not found.
 */
import t from 'tap'
import { ANALYSIS_VERSION } from '../../domain/aeo/analysis/analyze.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { addQuestion, appendQuestionEvent, enrolAcme, f } from './aeo-captures-support.js'
import { eventCount, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'

interface Item {
  id: number
  client_id: number
  item_key: string
  tier: string
  title: string
  status: string
  evidence: string
  note: string | null
  query_ids: number[]
  hits: { month: string; count: number }[]
  hit_count: number
  first_month: string
  last_month: string
}

const TIERS = ['A', 'B', 'C', 'X']

function ingest(ts: TestSystem, key: string, body: Record<string, unknown>) {
  return ts.call<number>('ingest_aeo_capture', body, key)
}

t.test('new, carried and resolved across captures; items ordered and counted per month', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId, costQueryId } = await enrolAcme(ts)
  const first = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.absent,
    citations: f.absentCitations,
    month: '2026-09',
  })
  const second = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
    month: '2026-10',
  })
  await ingest(ts, org.key, {
    client_id: clientId,
    query_id: costQueryId,
    engine: 'openai',
    answer_text: f.absent,
    citations: f.absentCitations,
    month: '2026-10',
  })

  const tracked = (await streamEvents(ts, `aeo_tracker-${clientId}`)).map((e) => e.data)
  t.equal(tracked.length, 3)
  t.strictSame(tracked[0].opened.map((o: { item_key: string }) => o.item_key).sort(), [
    'listing:bbb.org',
    'listing:google.com',
    'market:coverage:statesman.com',
    'market:leader:radiant-plumbing-air-conditioning',
    'reviews:drain-cleaning',
    'site:service-page:drain-cleaning:austin-tx',
  ])
  t.match(tracked[1], { capture_id: second, scorecard: { present: true, position: 3 } })
  t.strictSame(
    tracked[1].opened.map((o: { item_key: string }) => o.item_key).sort(),
    ['listing:angi.com', 'listing:yelp.com', 'site:citable:drain-cleaning'],
    'new',
  )
  t.strictSame([...tracked[1].carried].sort(), ['market:leader:radiant-plumbing-air-conditioning', 'reviews:drain-cleaning'], 'carried')
  t.strictSame(
    [...tracked[1].resolved].sort(),
    ['listing:bbb.org', 'listing:google.com', 'market:coverage:statesman.com', 'site:service-page:drain-cleaning:austin-tx'],
    'resolved',
  )
  t.strictSame(tracked[2].resolved, [], 'another question and engine resolves nothing')
  t.ok(
    tracked[2].opened.some((o: { item_key: string }) => o.item_key === 'site:pricing:drain-cleaning'),
    'the cost question opens pricing work',
  )

  const items = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  const order = items.map((i) => [TIERS.indexOf(i.tier), i.title] as const)
  t.strictSame(
    order,
    [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)),
    'tier A→X, then title',
  )
  t.equal(items.length, 10)
  const leader = items.find((i) => i.item_key === 'market:leader:radiant-plumbing-air-conditioning')!
  t.match(leader, { tier: 'X', status: 'open', first_month: '2026-09', last_month: '2026-10', hit_count: 3, note: null })
  t.strictSame(
    leader.query_ids,
    [queryId, costQueryId].sort((a, b) => a - b),
  )
  t.strictSame(leader.hits, [
    { month: '2026-09', count: 1 },
    { month: '2026-10', count: 2 },
  ])
  const bbb = items.find((i) => i.item_key === 'listing:bbb.org')!
  t.match(bbb, { tier: 'C', hit_count: 2 })
  t.match(bbb.evidence, /Better Business Bureau/)

  t.strictSame(await ts.call('get_aeo_item', { item_id: leader.id }, org.key), leader)
  t.strictSame(await ts.call('get_aeo_item_by_key', { client_id: clientId, item_key: leader.item_key }, org.key), leader)
  expectError(t, await ts.rpc('get_aeo_item_by_key', { client_id: clientId, item_key: 'no:such' }, org.key), 404, 'not_found')
  t.ok(first < second)
})

t.test('status changes emit the event, filter the list and are scoped to the client', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  const other = await orgWithKey(ts, 'Other Agency')
  await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.absent,
    citations: f.absentCitations,
  })
  const [item] = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)

  const updated = await ts.call<Item>(
    'update_aeo_item_status',
    { item_id: item!.id, client_id: clientId, status: 'in_progress', note: 'page drafted' },
    org.key,
  )
  t.match(updated, { id: item!.id, status: 'in_progress', note: 'page drafted' })
  const done = await ts.call<Item>('update_aeo_item_status', { item_id: item!.id, client_id: clientId, status: 'done' }, org.key)
  t.match(done, { status: 'done', note: 'page drafted' }, 'the note stays unless given')
  const events = (await streamEvents(ts, `aeo_tracker-${clientId}`)).filter((e) => e.type === 'AeoItemStatusChanged')
  t.strictSame(
    events.map((e) => e.data),
    [
      { client_id: clientId, item_id: item!.id, item_key: item!.item_key, from: 'open', to: 'in_progress', note: 'page drafted' },
      { client_id: clientId, item_id: item!.id, item_key: item!.item_key, from: 'in_progress', to: 'done', note: 'page drafted' },
    ],
  )
  t.equal(events[0]!.metadata.org_id, org.orgId)
  t.strictSame(
    (await ts.call<Item[]>('get_aeo_items', { client_id: clientId, status: 'done' }, org.key)).map((i) => i.id),
    [item!.id],
  )
  t.notOk((await ts.call<Item[]>('get_aeo_items', { client_id: clientId, status: 'open' }, org.key)).some((i) => i.id === item!.id))

  const heaters = await ts.call<number>(
    'add_client',
    { client: { name: 'Heaters Ltd', website_url: 'https://heaters.example.com' } },
    org.key,
  )
  const before = await eventCount(ts)
  expectError(
    t,
    await ts.rpc('update_aeo_item_status', { item_id: item!.id, client_id: clientId, status: 'closed' }, org.key),
    400,
    'validation_failed',
    'unknown status',
  )
  // The item under another client of the same organization: not found.
  expectError(
    t,
    await ts.rpc('update_aeo_item_status', { item_id: item!.id, client_id: heaters, status: 'open' }, org.key),
    404,
    'not_found',
    "another client's item",
  )
  // Another organization: the same body as a missing item / client.
  const missing = item!.id + 1000
  const a = expectError(t, await ts.rpc('get_aeo_item', { item_id: item!.id }, other.key), 404, 'not_found')
  const b = expectError(t, await ts.rpc('get_aeo_item', { item_id: missing }, other.key), 404, 'not_found')
  t.strictSame(withoutIds(a, [item!.id]), withoutIds(b, [missing]))
  const c = expectError(
    t,
    await ts.rpc('update_aeo_item_status', { item_id: item!.id, client_id: clientId, status: 'open' }, other.key),
    404,
    'not_found',
  )
  const d = expectError(
    t,
    await ts.rpc('update_aeo_item_status', { item_id: item!.id, client_id: clientId + 1000, status: 'open' }, other.key),
    404,
    'not_found',
  )
  t.strictSame(withoutIds(c, [clientId]), withoutIds(d, [clientId + 1000]))
  for (const method of ['get_aeo_items', 'delete_aeo_items_for_client', 'reanalyze_aeo_client']) {
    expectError(t, await ts.rpc(method, { client_id: clientId }, other.key), 404, 'not_found', method)
  }
  expectError(t, await ts.rpc('get_aeo_item_by_key', { client_id: clientId, item_key: item!.item_key }, other.key), 404, 'not_found')
  t.equal(await eventCount(ts), before, 'nothing appended by refused calls')
})

t.test('delete_aeo_items_for_client counts; a later capture opens the keys again', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
  })
  const items = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  t.equal(await ts.call('delete_aeo_items_for_client', { client_id: clientId }, org.key), items.length)
  t.strictSame(await ts.call('get_aeo_items', { client_id: clientId }, org.key), [])
  t.equal(await ts.call('delete_aeo_items_for_client', { client_id: clientId }, org.key), 0)
  await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
  })
  const again = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  t.strictSame(again.map((i) => i.item_key).sort(), items.map((i) => i.item_key).sort())
  t.ok(
    again.every((i) => !items.some((old) => old.id === i.id) && i.hit_count === 1),
    'new ids, only the new hit',
  )
})

t.test('reanalyze rebuilds items from every capture and keeps statuses and notes; merged questions are re-pointed', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  const dup = await addQuestion(ts, clientId, org.orgId, { ...f.bestOf, kind: 'best-of', prompt: 'Best emergency plumber in Austin, TX?' })
  const c1 = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'claude',
    answer_text: f.absent,
    citations: f.absentCitations,
    month: '2026-09',
  })
  const c2 = await ingest(ts, org.key, {
    client_id: clientId,
    query_id: dup,
    engine: 'gemini',
    answer_text: f.namedLater,
    citations: f.namedLaterCitations,
    month: '2026-10',
  })
  const before = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  const yelp = before.find((i) => i.item_key === 'listing:yelp.com')!
  await ts.call(
    'update_aeo_item_status',
    { item_id: yelp.id, client_id: clientId, status: 'dismissed', note: 'not on Yelp by choice' },
    org.key,
  )

  await appendQuestionEvent(ts, clientId, org.orgId, 'AeoQuestionsMerged', {
    client_id: clientId,
    canonical_id: queryId,
    merged_ids: [dup],
  })
  const merged = await ts.call<{ id: number; query_id: number }[]>('get_aeo_captures', { client_id: clientId }, org.key)
  t.strictSame(
    merged.map((c) => [c.id, c.query_id]),
    [
      [c2, queryId],
      [c1, queryId],
    ],
    'captures re-pointed to the canonical question',
  )
  t.ok(
    (await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)).every((i) => i.query_ids.every((q) => q === queryId)),
    'item hits re-pointed',
  )

  const summary = await ts.call('reanalyze_aeo_client', { client_id: clientId }, org.key)
  t.strictSame(summary, {
    client_id: clientId,
    analysis_version: ANALYSIS_VERSION,
    captures: 2,
    changed: 0,
    items: before.length,
    kept: before.length,
    opened: 0,
    removed: 0,
  })
  const streamTypes = (await streamEvents(ts, `aeo_capture-${c1}`)).map((e) => e.type)
  t.strictSame(streamTypes, ['AeoCaptureIngested', 'AeoCaptureReanalyzed'])
  const rebuilt = (await streamEvents(ts, `aeo_tracker-${clientId}`)).at(-1)!
  t.equal(rebuilt.type, 'AeoTrackerRebuilt')
  t.ok(
    rebuilt.data.items.every((i: { hits: { query_id: number }[] }) => i.hits.every((h) => h.query_id === queryId)),
    'the rebuild carries canonical question ids',
  )

  const after = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  t.strictSame(
    after.map((i) => [i.id, i.item_key, i.status, i.note, i.hit_count]),
    before.map((i) => [
      i.id,
      i.item_key,
      i.id === yelp.id ? 'dismissed' : i.status,
      i.id === yelp.id ? 'not on Yelp by choice' : i.note,
      i.hit_count,
    ]),
    'same items, statuses and notes kept',
  )

  // After the rebuild, "found before" per question and engine is what the rebuilt captures found.
  await ingest(ts, org.key, {
    client_id: clientId,
    query_id: queryId,
    engine: 'gemini',
    answer_text: f.namedFirst,
    citations: f.namedFirstCitations,
    month: '2026-11',
  })
  const last = (await streamEvents(ts, `aeo_tracker-${clientId}`)).at(-1)!
  t.strictSame(
    [...last.data.resolved].sort(),
    [
      ...(rebuilt.data.items as { item_key: string; hits: { capture_id: number }[] }[])
        .filter((i) => i.hits.some((h) => h.capture_id === c2))
        .map((i) => i.item_key),
    ].sort(),
  )
  expectError(t, await ts.rpc('reanalyze_aeo_client', { client_id: clientId + 1000 }, org.key), 404, 'not_found')
})

t.test('concurrent ingests for one client: every key is opened exactly once, every capture tracked once', async (t) => {
  const ts = await startTestSystem(t)
  const { org, clientId, queryId } = await enrolAcme(ts)
  const ids = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      ingest(ts, org.key, {
        client_id: clientId,
        query_id: queryId,
        engine: i % 2 ? 'claude' : 'openai',
        answer_text: f.absent,
        citations: f.absentCitations,
      }),
    ),
  )
  t.equal(new Set(ids).size, 8)
  const tracked = (await streamEvents(ts, `aeo_tracker-${clientId}`)).map((e) => e.data)
  t.strictSame(
    tracked.map((d) => d.capture_id).sort((a, b) => a - b),
    [...ids].sort((a, b) => a - b),
    'one AeoCaptureTracked per capture',
  )
  const opened = tracked.flatMap((d) => d.opened.map((o: { item_key: string }) => o.item_key))
  t.equal(opened.length, new Set(opened).size, 'no key opened twice')
  t.equal(tracked.filter((d) => d.opened.length > 0).length, 1, 'only the first tracked capture opens')
  const items = await ts.call<Item[]>('get_aeo_items', { client_id: clientId }, org.key)
  t.equal(items.length, opened.length)
  t.ok(
    items.every((i) => i.hit_count === 8),
    'every capture is a hit of every item',
  )
})
