/**
 * AI Visibility questions through the RPCs: generation (and generating again), get-or-create adds across
 * engines, listing order and capture stats, updates and prompt conflicts, deletes (deactivate when captured),
 * bulk deletes, dedupe of rows written under older normalizations, deleted clients, and no leak of another
 * organization's questions.
 */
import t from 'tap'
import { questionSetStream } from '../../domain/aeo/questions/question-set.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey, streamEvents, withoutIds, type OrgWithKey } from './helpers.js'
import { readModelsAt } from '../support/read-models.js'

interface Question {
  id: number
  client_id: number
  prompt: string
  engine: string
  service: string
  location: string
  kind: string
  priority: number
  active: boolean
  source: string
  created_at: string
  updated_at: string
  capture_count: number
  last_month: string | null
}

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>(
    'add_client',
    clientPayload('Acme Plumbing', { services: ['Emergency plumber', 'Drain cleaning'], locations: ['Austin, TX', 'Round Rock, TX'] }),
    org.key,
  )
  return { ts, org, clientId }
}

/** A capture row as the captures projector would write it (that part owns aeo_captures). */
async function recordCapture(ts: TestSystem, org: OrgWithKey, clientId: number, queryId: number, month: string, id: number): Promise<void> {
  await ts.database.pool.query(
    `insert into read_models.aeo_captures
       (id, client_id, org_id, query_id, engine, month, run_id, answer_text, citations, retrieved, model, surface, searched,
        analysis_version, report_json, record_bytes, record_pruned_at, captured_at)
     values ($1, $2, $3, $4, 'claude', $5, null, 'an answer', '[]', '[]', 'm', 'api', true, 1, '{}', 0, null, now())`,
    [id, clientId, org.orgId, queryId, month],
  )
}

const listOf = (ts: TestSystem, clientId: number, key: string) => ts.call<Question[]>('get_aeo_queries', { client_id: clientId }, key)

t.test('generate_aeo_questions builds the set once; again adds only what is missing', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const first = await ts.call<{ added: number; total: number; query_ids: number[] }>(
    'generate_aeo_questions',
    { client_id: clientId },
    org.key,
  )
  t.equal(first.added, 2 * 2 * 6, 'six phrasings per service × location')
  t.equal(first.total, first.added)
  t.equal(first.query_ids.length, first.added)

  const list = await listOf(ts, clientId, org.key)
  t.equal(list.length, first.added)
  t.strictSame(new Set(list.map((q) => q.id)), new Set(first.query_ids))
  const prompts = list.map((q) => q.prompt)
  t.ok(prompts.includes('best emergency plumber in Austin, TX'))
  t.ok(prompts.includes('who should I hire for drain cleaning near Round Rock?'))
  t.ok(prompts.includes('how much does drain cleaning cost in Austin, TX?'))
  t.ok(prompts.includes('is Acme Plumbing a trustworthy emergency plumber in Austin, TX?'))
  t.match(list[0], {
    prompt: 'best emergency plumber in Austin, TX',
    service: 'Emergency plumber',
    location: 'Austin, TX',
    kind: 'best-of',
    active: true,
    source: 'generated',
    engine: 'chatgpt-web',
    capture_count: 0,
    last_month: null,
  })
  t.strictSame([...new Set(list.map((q) => q.kind))].sort(), ['best-of', 'comparison', 'cost', 'near-me', 'trust'])

  const before = await eventCount(ts)
  const again = await ts.call('generate_aeo_questions', { client_id: clientId }, org.key)
  t.strictSame(again, { added: 0, total: first.total, query_ids: first.query_ids }, 'nothing missing: nothing added, same ids')
  t.equal(await eventCount(ts), before, 'no event')

  // A deleted question is missing again; a new location adds its pairs.
  const gone = first.query_ids[3]!
  t.equal(await ts.call('delete_aeo_query', { query_id: gone }, org.key), true)
  await ts.call('add_location', { location: { client_id: clientId, name: 'Pflugerville, TX' } }, org.key)
  const third = await ts.call<{ added: number; total: number; query_ids: number[] }>(
    'generate_aeo_questions',
    { client_id: clientId },
    org.key,
  )
  t.equal(third.added, 1 + 2 * 6, 'the deleted one and the new location’s')
  t.equal(third.total, first.total + 2 * 6)
  t.notOk(third.query_ids.includes(gone), 'a deleted question comes back with a new id')
  t.equal((await listOf(ts, clientId, org.key)).filter((q) => q.location === 'Pflugerville, TX').length, 12)
})

t.test('generate_aeo_questions: no services is a coded error with a hint', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const clientId = await ts.call<number>('add_client', clientPayload('Bare Site', { locations: ['Austin, TX'] }), org.key)
  const body = expectError(t, await ts.rpc('generate_aeo_questions', { client_id: clientId }, org.key), 409, 'aeo_no_services')
  t.match(body.hint, /add_service/)

  // Without locations it still works, with location-free questions.
  const plain = await ts.call<number>('add_client', clientPayload('Plain Site', { services: ['Roof repair'] }), org.key)
  const result = await ts.call<{ added: number }>('generate_aeo_questions', { client_id: plain }, org.key)
  t.equal(result.added, 6)
  const prompts = (await listOf(ts, plain, org.key)).map((q) => q.prompt)
  t.ok(prompts.includes('how much does roof repair cost?'))
  t.ok(prompts.includes('who should I hire for roof repair near me?'))
})

t.test('add_aeo_query is get-or-create on the normalized prompt, across engines', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const id = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'Best plumber in Austin, TX?' }, org.key)
  t.ok(Number.isInteger(id) && id > 0)
  t.equal(await ts.call('add_aeo_query', { client_id: clientId, prompt: 'best   PLUMBER in austin tx', engine: 'claude' }, org.key), id)
  t.equal(await ts.call('add_aeo_query', { client_id: clientId, prompt: 'Best plumber in Austin TX!!', engine: 'Gemini' }, org.key), id)
  const question = await ts.call<Question>('get_aeo_query', { query_id: id }, org.key)
  t.match(question, {
    id,
    client_id: clientId,
    prompt: 'Best plumber in Austin, TX?',
    engine: 'chatgpt-web',
    kind: 'custom',
    source: 'manual',
    active: true,
    priority: 50,
    capture_count: 0,
    last_month: null,
  })

  const other = await ts.call<number>(
    'add_aeo_query',
    { client_id: clientId, prompt: 'Who fixes water heaters?', engine: 'openai' },
    org.key,
  )
  t.not(other, id)
  t.equal((await ts.call<Question>('get_aeo_query', { query_id: other }, org.key)).engine, 'openai')
  t.equal(
    (await streamEvents(ts, questionSetStream(clientId))).filter((e) => e.type === 'AeoQuestionAdded').length,
    2,
    'two questions recorded',
  )

  const before = await eventCount(ts)
  const bad = expectError(
    t,
    await ts.rpc('add_aeo_query', { client_id: clientId, prompt: 'x y z', engine: 'bing' }, org.key),
    400,
    'aeo_engine_unsupported',
  )
  t.match(bad.detail, /unsupported engine/)
  expectError(t, await ts.rpc('add_aeo_query', { client_id: clientId, prompt: '?!?!' }, org.key), 400, 'validation_failed', 'no words')
  expectError(t, await ts.rpc('add_aeo_query', { client_id: clientId, prompt: 'hi' }, org.key), 400, 'validation_failed', 'too short')
  expectError(t, await ts.rpc('add_aeo_query', { client_id: clientId }, org.key), 400, 'validation_failed', 'prompt required')
  expectError(t, await ts.rpc('add_aeo_query', { client_id: 999999, prompt: 'a question' }, org.key), 404, 'not_found', 'unknown client')
  t.equal(await eventCount(ts), before, 'refused requests changed nothing')
})

t.test('get_aeo_queries: active first, then priority, then age; with capture_count and last_month', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const add = (prompt: string) => ts.call<number>('add_aeo_query', { client_id: clientId, prompt }, org.key)
  const a = await add('question a')
  const b = await add('question b')
  const c = await add('question c')
  const d = await add('question d')
  const e = await add('question e')
  await ts.call('update_aeo_query', { query_id: b, priority: 80 }, org.key)
  await ts.call('update_aeo_query', { query_id: d, priority: 90, active: false }, org.key)
  await ts.call('update_aeo_query', { query_id: e, priority: 10 }, org.key)
  t.strictSame(
    (await listOf(ts, clientId, org.key)).map((q) => q.id),
    [b, a, c, e, d],
  )

  await recordCapture(ts, org, clientId, a, '2026-09', 9001)
  await recordCapture(ts, org, clientId, a, '2026-11', 9002)
  await recordCapture(ts, org, clientId, a, '2026-10', 9003)
  await recordCapture(ts, org, clientId, c, '2026-10', 9004)
  const list = await listOf(ts, clientId, org.key)
  const stats = Object.fromEntries(list.map((q) => [q.id, [q.capture_count, q.last_month]]))
  t.strictSame(stats, { [a]: [3, '2026-11'], [b]: [0, null], [c]: [1, '2026-10'], [d]: [0, null], [e]: [0, null] })
  t.match(await ts.call('get_aeo_query', { query_id: a }, org.key), { capture_count: 3, last_month: '2026-11' })
})

t.test('update_aeo_query changes only the given fields; a colliding prompt is a 409', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const id = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'Best plumber in Austin' }, org.key)
  const other = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'Cheapest plumber in Austin' }, org.key)
  const updated = await ts.call<Question>(
    'update_aeo_query',
    {
      query_id: id,
      active: false,
      priority: 77,
      prompt: 'Best emergency plumber in Austin?',
      service: 'Emergency plumber',
      kind: 'best-of',
    },
    org.key,
  )
  t.match(updated, {
    id,
    active: false,
    priority: 77,
    prompt: 'Best emergency plumber in Austin?',
    service: 'Emergency plumber',
    kind: 'best-of',
    source: 'manual',
  })
  t.ok(updated.updated_at >= updated.created_at)
  t.match(await ts.call('update_aeo_query', { query_id: id, priority: 5 }, org.key), {
    priority: 5,
    active: false,
    prompt: 'Best emergency plumber in Austin?',
  })
  // The new prompt is now what add_aeo_query finds.
  t.equal(await ts.call('add_aeo_query', { client_id: clientId, prompt: 'best emergency plumber in austin' }, org.key), id)

  const before = await eventCount(ts)
  const conflict = expectError(
    t,
    await ts.rpc('update_aeo_query', { query_id: id, prompt: 'CHEAPEST plumber, in Austin!' }, org.key),
    409,
    'aeo_question_conflict',
  )
  t.match(conflict.detail, new RegExp(`question ${other}\\b`))
  expectError(t, await ts.rpc('update_aeo_query', { query_id: id, priority: 101 }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('update_aeo_query', { query_id: id, kind: 'sideways' }, org.key), 400, 'validation_failed')
  expectError(t, await ts.rpc('update_aeo_query', { query_id: id, engine: 'claude' }, org.key), 400, 'validation_failed', 'unknown field')
  expectError(t, await ts.rpc('update_aeo_query', { query_id: 987654, active: true }, org.key), 404, 'not_found')
  t.equal(await eventCount(ts), before, 'refused updates changed nothing')
  t.match(await ts.call('update_aeo_query', { query_id: id }, org.key), { id, priority: 5 }, 'no fields: the question, unchanged')
  t.equal(await eventCount(ts), before)
})

t.test('delete_aeo_query deletes, or deactivates a captured question', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const plain = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'never captured' }, org.key)
  const captured = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'captured once' }, org.key)
  await recordCapture(ts, org, clientId, captured, '2026-11', 9101)

  t.equal(await ts.call('delete_aeo_query', { query_id: plain }, org.key), true)
  expectError(t, await ts.rpc('get_aeo_query', { query_id: plain }, org.key), 404, 'not_found', 'deleted')
  expectError(t, await ts.rpc('delete_aeo_query', { query_id: plain }, org.key), 404, 'not_found', 'deleted twice')

  t.equal(await ts.call('delete_aeo_query', { query_id: captured }, org.key), false)
  t.match(await ts.call('get_aeo_query', { query_id: captured }, org.key), { active: false, capture_count: 1 })
  t.equal(await ts.call('delete_aeo_query', { query_id: captured }, org.key), false, 'again: still false')
  const events = (await streamEvents(ts, questionSetStream(clientId))).map((e) => e.type)
  t.strictSame(events, ['AeoQuestionAdded', 'AeoQuestionAdded', 'AeoQuestionDeleted', 'AeoQuestionUpdated'])
})

t.test('delete_aeo_queries_for_client keeps captured questions unless told otherwise', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const ids: number[] = []
  for (const prompt of ['one question', 'two question', 'three question'])
    ids.push(await ts.call<number>('add_aeo_query', { client_id: clientId, prompt }, org.key))
  await recordCapture(ts, org, clientId, ids[1]!, '2026-11', 9201)
  t.equal(await ts.call('delete_aeo_queries_for_client', { client_id: clientId }, org.key), 2)
  t.strictSame(
    (await listOf(ts, clientId, org.key)).map((q) => q.id),
    [ids[1]],
  )
  t.equal(await ts.call('delete_aeo_queries_for_client', { client_id: clientId, uncaptured_only: true }, org.key), 0)
  t.equal(await ts.call('delete_aeo_queries_for_client', { client_id: clientId, uncaptured_only: false }, org.key), 1)
  t.strictSame(await listOf(ts, clientId, org.key), [])
})

t.test('dedupe_aeo_queries merges rows written under older normalizations into the oldest', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const canonical = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'Best plumber in Austin, TX' }, org.key)
  await ts.call('update_aeo_query', { query_id: canonical, active: false, priority: 20 }, org.key)
  const keep = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'A different question' }, org.key)
  t.strictSame(
    await ts.call('dedupe_aeo_queries', { client_id: clientId }, org.key),
    { merged: 0, groups: [], total: 2 },
    'no duplicates yet',
  )

  // Older normalizations kept punctuation in the key, so these were once distinct rows.
  const stream = questionSetStream(clientId)
  const recorded = await streamEvents(ts, stream)
  const duplicates = [
    { query_id: 880001, prompt: 'best plumber in austin, tx', engine: 'claude', priority: 70, active: true },
    { query_id: 880002, prompt: 'BEST PLUMBER IN AUSTIN TX?', engine: 'gemini', priority: 30, active: false },
  ]
  const appended = await ts.system.store.append(
    stream,
    duplicates.map((d) => ({
      type: 'AeoQuestionAdded',
      data: { client_id: clientId, ...d, prompt_key: d.prompt.toLowerCase(), service: '', location: '', kind: 'custom', source: 'manual' },
      metadata: { ...recorded[0]!.metadata, occurred_at: new Date().toISOString() },
    })),
    BigInt(recorded.length - 1),
  )
  await readModelsAt(ts, appended.position)
  t.equal((await listOf(ts, clientId, org.key)).length, 4, 'the duplicates are listed before dedupe')

  const result = await ts.call('dedupe_aeo_queries', { client_id: clientId }, org.key)
  t.strictSame(result, { merged: 2, groups: [{ canonical_id: canonical, merged_ids: [880001, 880002] }], total: 2 })
  const after = await listOf(ts, clientId, org.key)
  t.strictSame(after.map((q) => q.id).sort(), [canonical, keep].sort())
  t.match(
    after.find((q) => q.id === canonical),
    { active: true, priority: 70, prompt: 'Best plumber in Austin, TX' },
    'active if any was, highest priority',
  )
  expectError(t, await ts.rpc('get_aeo_query', { query_id: 880001 }, org.key), 404, 'not_found', 'a merged row is gone')
  const merged = (await streamEvents(ts, stream)).find((e) => e.type === 'AeoQuestionsMerged')
  t.strictSame(merged?.data, { client_id: clientId, canonical_id: canonical, merged_ids: [880001, 880002] })
  t.equal(merged?.metadata.org_id, org.orgId, 'recorded under the client’s organization')

  t.strictSame(
    await ts.call('dedupe_aeo_queries', { client_id: clientId }, org.key),
    { merged: 0, groups: [], total: 2 },
    'nothing left to merge',
  )
})

t.test("another organization's questions answer exactly like missing ones", async (t) => {
  const { ts, org, clientId } = await setup(t)
  const other = await orgWithKey(ts, 'Other Agency')
  const id = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'a private question' }, org.key)
  const missing = 999999
  const before = await eventCount(ts)
  const cases: [string, (queryId: number) => Record<string, unknown>][] = [
    ['get_aeo_query', (q) => ({ query_id: q })],
    ['update_aeo_query', (q) => ({ query_id: q, active: false })],
    ['delete_aeo_query', (q) => ({ query_id: q })],
  ]
  for (const [method, body] of cases) {
    const foreign = expectError(t, await ts.rpc(method, body(id), other.key), 404, 'not_found', `${method} foreign`)
    const absent = expectError(t, await ts.rpc(method, body(missing), other.key), 404, 'not_found', `${method} missing`)
    t.strictSame(withoutIds(foreign, [id]), withoutIds(absent, [missing]), `${method}: same body`)
  }
  for (const method of ['get_aeo_queries', 'generate_aeo_questions', 'delete_aeo_queries_for_client', 'dedupe_aeo_queries']) {
    const foreign = expectError(t, await ts.rpc(method, { client_id: clientId }, other.key), 404, 'not_found', `${method} foreign client`)
    const absent = expectError(t, await ts.rpc(method, { client_id: missing }, other.key), 404, 'not_found', `${method} missing client`)
    t.strictSame(withoutIds(foreign, [clientId]), withoutIds(absent, [missing]), `${method}: same body`)
  }
  expectError(t, await ts.rpc('add_aeo_query', { client_id: clientId, prompt: 'sneaky question' }, other.key), 404, 'not_found')
  expectError(
    t,
    await ts.rpc('get_aeo_query', { query_id: id, org_id: org.orgId }, other.key),
    404,
    'not_found',
    'passing the owner org_id does not help',
  )
  t.equal(await eventCount(ts), before, 'nothing written')
  t.match(await ts.call('get_aeo_query', { query_id: id }, org.key), { active: true }, 'untouched')

  // A platform key sees it, with or without org_id; and writes under the client's organization.
  t.match(await ts.call('get_aeo_query', { query_id: id }), { id })
  t.match(await ts.call('get_aeo_query', { query_id: id, org_id: org.orgId }), { id })
  expectError(
    t,
    await ts.rpc('get_aeo_query', { query_id: id, org_id: other.orgId }),
    404,
    'not_found',
    'platform key scoped to another org',
  )
  const platformAdded = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'added by the platform', org_id: org.orgId })
  const events = await streamEvents(ts, questionSetStream(clientId))
  t.equal(events.find((e) => e.data.query_id === platformAdded)?.metadata.org_id, org.orgId)
})

t.test('a deleted client: reads work, writes answer client_deleted', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const id = await ts.call<number>('add_aeo_query', { client_id: clientId, prompt: 'a question before deletion' }, org.key)
  await ts.call('set_client_status', { client_id: clientId, status: 'deleted' }, org.key)
  const before = await eventCount(ts)
  for (const [method, body] of [
    ['generate_aeo_questions', { client_id: clientId }],
    ['add_aeo_query', { client_id: clientId, prompt: 'another question' }],
    ['update_aeo_query', { query_id: id, priority: 1 }],
    ['delete_aeo_query', { query_id: id }],
    ['delete_aeo_queries_for_client', { client_id: clientId }],
    ['dedupe_aeo_queries', { client_id: clientId }],
  ] as const) {
    expectError(t, await ts.rpc(method, body, org.key), 409, 'client_deleted', method)
  }
  t.equal(await eventCount(ts), before)
  t.equal((await listOf(ts, clientId, org.key)).length, 1)
  t.match(await ts.call('get_aeo_query', { query_id: id }, org.key), { id })
})

t.test('a read-only key cannot write questions', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const readOnly = await ts.call<{ key: string }>('create_api_key', { name: 'ro', org_id: org.orgId, scopes: 'read' })
  expectError(t, await ts.rpc('add_aeo_query', { client_id: clientId, prompt: 'a question' }, readOnly.key), 403, 'insufficient_scope')
  t.strictSame(await ts.call('get_aeo_queries', { client_id: clientId }, readOnly.key), [])
})

t.test('concurrent adds of one question, spelled differently, make one row', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const spellings = [
    'Best plumber near Round Rock?',
    'best plumber near round rock',
    'BEST PLUMBER, NEAR ROUND ROCK',
    'best  plumber near Round-Rock',
    'Best plumber near Round Rock!!',
  ]
  const engines = ['chatgpt', 'claude', 'openai', 'gemini', 'chatgpt-web']
  const ids = await Promise.all(
    spellings.map((prompt, i) => ts.call<number>('add_aeo_query', { client_id: clientId, prompt, engine: engines[i] }, org.key)),
  )
  t.equal(new Set(ids).size, 1, `one id for every spelling: ${ids.join(',')}`)
  const added = (await streamEvents(ts, questionSetStream(clientId))).filter((e) => e.type === 'AeoQuestionAdded')
  t.equal(added.length, 1, 'one AeoQuestionAdded')
  // Generating concurrently twice adds the set once.
  const [a, b] = await Promise.all([
    ts.call<{ added: number; total: number }>('generate_aeo_questions', { client_id: clientId }, org.key),
    ts.call<{ added: number; total: number }>('generate_aeo_questions', { client_id: clientId }, org.key),
  ])
  t.equal(a.added + b.added, 24, 'the set is added once between the two calls')
  t.equal((await listOf(ts, clientId, org.key)).length, 25)
})
