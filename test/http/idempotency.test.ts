/**
 * Idempotency-Key on POST /api/v1/rpc/*: exactly once under concurrency (two API processes, one database),
 * replays with Idempotency-Replayed, 409 for a reused key or a request still running, 400 for a malformed
 * key, keys scoped per API key, reads unaffected, what is stored for errors, takeover of an orphaned
 * in-flight key, and expiry.
 */
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { IdempotencyStore, requestFingerprint, canonicalJson } from '../../read-api/platform/idempotency.js'
import { setWritesState } from '../../read-api/platform/writes-switch.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, orgWithKey } from './helpers.js'

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function post(ts: TestSystem, method: string, body: unknown, key: string, idempotencyKey?: string) {
  return ts.app.inject({
    method: 'POST',
    url: `/api/v1/rpc/${method}`,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function countRows(ts: TestSystem, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await ts.database.pool.query<{ n: number }>(sql, params)
  return rows[0]!.n
}

const clientAddedEvents = (ts: TestSystem, name: string) =>
  countRows(ts, `select count(*)::int as n from es_events where type = 'ClientAdded' and data->>'name' = $1`, [name])
const clientRows = (ts: TestSystem, name: string) =>
  countRows(ts, `select count(*)::int as n from read_models.clients where name = $1`, [name])

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (!address || typeof address !== 'object') throw new Error('no address')
  return `http://127.0.0.1:${address.port}`
}

t.test('fifty concurrent requests with one key, on two API processes, execute exactly once', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  // A second API process on the same database: nothing that makes this exactly-once may live in memory.
  const second = await ts.system.buildApp()
  t.teardown(() => second.close())
  const urls = [await listen(ts.app), await listen(second)]
  const body = JSON.stringify(clientPayload('Concurrent Plumbing'))
  const before = await eventCount(ts)

  interface Seen {
    status: number
    body: string
    replayed: string | null
    readYourWrites: string | null
    inFlight: number
  }
  // Each client retries on 409 idempotency_in_flight, as Retry-After tells it to (here sooner, to be quick).
  const attempt = async (i: number): Promise<Seen> => {
    let inFlight = 0
    for (;;) {
      const response = await fetch(`${urls[i % 2]}/api/v1/rpc/add_client`, {
        method: 'POST',
        headers: { authorization: `Bearer ${org.key}`, 'content-type': 'application/json', 'idempotency-key': 'create-concurrent-1' },
        body,
      })
      const text = await response.text()
      if (response.status === 409 && (JSON.parse(text) as { code: string }).code === 'idempotency_in_flight') {
        t.equal(response.headers.get('retry-after'), '1', 'in flight: Retry-After')
        inFlight++
        await sleep(50)
        continue
      }
      return {
        status: response.status,
        body: text,
        replayed: response.headers.get('idempotency-replayed'),
        readYourWrites: response.headers.get('x-read-your-writes'),
        inFlight,
      }
    }
  }
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(i)))

  t.comment(`409 idempotency_in_flight answers seen while the first ran: ${results.reduce((n, r) => n + r.inFlight, 0)}`)
  t.ok(
    results.every((r) => r.status === 200),
    'every request ends with 200',
  )
  t.equal(new Set(results.map((r) => r.body)).size, 1, 'every request gets the same body')
  const id = (JSON.parse(results[0]!.body) as { result: number }).result
  t.ok(Number.isInteger(id) && id > 0, 'the body is the new client id')
  t.equal(results.filter((r) => r.replayed === null).length, 1, 'exactly one answer is the original')
  t.equal(results.filter((r) => r.replayed === 'true').length, 49, 'the other 49 are replays with Idempotency-Replayed: true')
  t.ok(
    results.every((r) => r.readYourWrites === 'reached'),
    'replays repeat X-Read-Your-Writes',
  )
  t.equal(await clientAddedEvents(ts, 'Concurrent Plumbing'), 1, 'one ClientAdded event in the log')
  t.equal(await clientRows(ts, 'Concurrent Plumbing'), 1, 'one client row')
  const requests = await countRows(
    ts,
    `select count(distinct metadata->>'request_id')::int as n from (select metadata from es_events order by global_position offset $1) e`,
    [before],
  )
  t.equal(requests, 1, 'every event appended since comes from one request')
  t.equal(await countRows(ts, 'select count(*)::int as n from idempotency_keys'), 1, 'one idempotency record')
})

t.test('a replay repeats status, body and headers; a reordered body is the same request', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const payload = { client: { name: 'Replay Co', website_url: 'https://replay.example.com', slug: 'replay-co' } }
  const first = await post(ts, 'add_client', payload, org.key, 'replay-1')
  t.equal(first.statusCode, 200)
  t.equal(first.headers['idempotency-replayed'], undefined, 'the original is not marked as a replay')
  t.equal(first.headers['x-read-your-writes'], 'reached')

  // Keys in another order, and another spacing: the canonical body is the same.
  const reordered = `{ "client": { "slug": "replay-co", "website_url": "https://replay.example.com", "name": "Replay Co" } }`
  const again = await post(ts, 'add_client', reordered, org.key, 'replay-1')
  t.equal(again.statusCode, 200)
  t.equal(again.body, first.body, 'the same body')
  t.equal(again.headers['idempotency-replayed'], 'true')
  t.equal(again.headers['x-read-your-writes'], 'reached', 'X-Read-Your-Writes replayed')
  t.match(String(again.headers['content-type']), /^application\/json/)
  t.ok(again.headers['x-request-id'], 'a request id of its own')
  t.not(again.headers['x-request-id'], first.headers['x-request-id'])
  t.equal(again.headers['x-service-api-version'], first.headers['x-service-api-version'])
  t.equal(await clientAddedEvents(ts, 'Replay Co'), 1, 'executed once')

  t.equal(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }), '{"a":null,"b":[1,{"c":2,"d":1}]}')
  t.equal(requestFingerprint('POST', '/x', { a: 1, b: 2 }), requestFingerprint('POST', '/x', { b: 2, a: 1 }))
  t.not(requestFingerprint('POST', '/x', { a: 1 }), requestFingerprint('POST', '/y', { a: 1 }))
})

t.test('the same key with another body, or another method, answers 409 idempotency_key_reused', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  t.equal((await post(ts, 'add_client', clientPayload('First Co'), org.key, 'reuse-1')).statusCode, 200)
  const before = await eventCount(ts)

  const otherBody = await post(ts, 'add_client', clientPayload('Second Co'), org.key, 'reuse-1')
  const envelope = expectError(t, otherBody, 409, 'idempotency_key_reused', 'another body')
  t.match(envelope.detail ?? '', /reuse-1/)
  t.equal(otherBody.headers['idempotency-replayed'], undefined)
  const otherMethod = await post(ts, 'create_organization', { name: 'Other' }, ts.platformKey, 'reuse-1')
  t.equal(otherMethod.statusCode, 200, 'the platform key is another caller: its reuse-1 is its own')
  const otherPath = await post(ts, 'set_client_status', { client_id: 1, status: 'inactive' }, org.key, 'reuse-1')
  expectError(t, otherPath, 409, 'idempotency_key_reused', 'another method')
  t.equal(await clientAddedEvents(ts, 'Second Co'), 0, 'the second body never ran')
  t.equal(await eventCount(ts), before + 1, 'only the platform key’s organization was created')
})

t.test('a malformed Idempotency-Key answers 400 and runs nothing', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const before = await eventCount(ts)
  const long = await post(ts, 'add_client', clientPayload('Long Key Co'), org.key, 'k'.repeat(201))
  const envelope = expectError(t, long, 400, 'idempotency_key_invalid', '201 characters')
  t.match(envelope.detail ?? '', /201 characters; at most 200/)
  expectError(t, await post(ts, 'add_client', clientPayload('Empty Key Co'), org.key, ''), 400, 'idempotency_key_invalid', 'empty')
  expectError(t, await post(ts, 'add_client', clientPayload('Space Key Co'), org.key, ' padded '), 400, 'idempotency_key_invalid', 'padded')
  // A read validates the key too.
  expectError(t, await post(ts, 'get_organization', {}, org.key, 'r'.repeat(201)), 400, 'idempotency_key_invalid', 'on a read')
  t.equal(await eventCount(ts), before, 'nothing was written')

  const longest = await post(ts, 'add_client', clientPayload('Longest Key Co'), org.key, 'k'.repeat(200))
  t.equal(longest.statusCode, 200, '200 characters are accepted')
  t.equal(await clientAddedEvents(ts, 'Longest Key Co'), 1)
})

t.test('keys are scoped to the calling API key; reads accept a key harmlessly; no key, no record', async (t) => {
  const ts = await startTestSystem(t)
  const acme = await orgWithKey(ts, 'Acme')
  const globex = await orgWithKey(ts, 'Globex')
  const a = await post(ts, 'add_client', clientPayload('Shared Name Co'), acme.key, 'same-key')
  const b = await post(ts, 'add_client', clientPayload('Shared Name Co'), globex.key, 'same-key')
  t.equal(a.statusCode, 200)
  t.equal(b.statusCode, 200)
  t.equal(b.headers['idempotency-replayed'], undefined, 'the second caller is not replayed the first one’s answer')
  t.not(a.json().result, b.json().result, 'two clients')
  t.equal(await clientAddedEvents(ts, 'Shared Name Co'), 2, 'both executed')

  // Reads run every time and are not recorded: a replay would serve stale data.
  const records = await countRows(ts, 'select count(*)::int as n from idempotency_keys')
  const read1 = await post(ts, 'get_all_clients', {}, acme.key, 'read-key')
  t.equal(read1.statusCode, 200)
  t.equal((read1.json().result as unknown[]).length, 1)
  await post(ts, 'add_client', clientPayload('Later Co'), acme.key)
  const read2 = await post(ts, 'get_all_clients', {}, acme.key, 'read-key')
  t.equal(read2.statusCode, 200)
  t.equal(read2.headers['idempotency-replayed'], undefined, 'a read is never a replay')
  t.equal((read2.json().result as unknown[]).length, 2, 'the read sees the later write')
  t.equal(await countRows(ts, 'select count(*)::int as n from idempotency_keys'), records, 'reads and key-less writes leave no record')

  // Without a key, the same write runs twice (idempotency is opt-in per request): two keys minted. (Not
  // add_client: it is get-or-create by name and website, so its second run answers the first client.)
  const twice = [
    await post(ts, 'create_api_key', { name: 'Twice key', scopes: 'read' }, acme.key),
    await post(ts, 'create_api_key', { name: 'Twice key', scopes: 'read' }, acme.key),
  ]
  t.not(twice[0]!.json().result.key, twice[1]!.json().result.key, 'two different keys')
  t.equal(twice[1]!.headers['idempotency-replayed'], undefined, 'not a replay')
  t.equal(
    await countRows(ts, `select count(*)::int as n from es_events where type = 'ApiKeyCreated' and data->>'name' = $1`, ['Twice key']),
    2,
  )

  // Unauthenticated: 401, and nothing recorded for nobody.
  const anonymous = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/add_client',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'anon' },
    payload: JSON.stringify(clientPayload('Anon Co')),
  })
  expectError(t, anonymous, 401, 'unauthorized')
  t.equal(await countRows(ts, `select count(*)::int as n from idempotency_keys where key = 'anon'`), 0)
})

t.test('a 4xx verdict is replayed; a 5xx (writes off) is not stored, so a retry runs', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')

  const invalid = await post(ts, 'add_client', { client: { name: '' } }, org.key, 'bad-1')
  expectError(t, invalid, 400, 'validation_failed')
  const invalidAgain = await post(ts, 'add_client', { client: { name: '' } }, org.key, 'bad-1')
  expectError(t, invalidAgain, 400, 'validation_failed', 'replayed')
  t.equal(invalidAgain.headers['idempotency-replayed'], 'true', 'the validation answer is replayed')
  t.equal(invalidAgain.body, invalid.body)

  await setWritesState(ts.system.database.db, false, { reason: 'maintenance', changedBy: 'test' })
  ts.app.writesSwitch.invalidate()
  const off = await post(ts, 'add_client', clientPayload('Retry Co'), org.key, 'retry-1')
  expectError(t, off, 503, 'writes_disabled')
  t.equal(await countRows(ts, `select count(*)::int as n from idempotency_keys where key = 'retry-1'`), 0, 'the 503 left no record')

  await setWritesState(ts.system.database.db, true, { changedBy: 'test' })
  ts.app.writesSwitch.invalidate()
  const on = await post(ts, 'add_client', clientPayload('Retry Co'), org.key, 'retry-1')
  t.equal(on.statusCode, 200, 'the retry runs')
  t.equal(on.headers['idempotency-replayed'], undefined)
  t.equal(await clientAddedEvents(ts, 'Retry Co'), 1)
})

t.test('in flight: 409 with Retry-After; an orphaned claim is taken over; expired records are replaced and swept', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const store = new IdempotencyStore(ts.system.database.db)
  const keyId = (await ts.database.pool.query<{ id: number }>('select id from read_models.api_keys where org_id = $1', [org.orgId]))
    .rows[0]!.id
  const caller = `api_key:${keyId}`
  const payload = clientPayload('Orphan Co')
  const hash = requestFingerprint('POST', '/api/v1/rpc/add_client', payload)

  // Another process holds the key and is still running.
  const held = await store.claim(caller, 'orphan-1', hash)
  t.equal(held.kind, 'claimed', 'the store claims a fresh key')
  const busy = await post(ts, 'add_client', payload, org.key, 'orphan-1')
  expectError(t, busy, 409, 'idempotency_in_flight')
  t.equal(busy.headers['retry-after'], '1')
  expectError(
    t,
    await post(ts, 'add_client', clientPayload('Other Co'), org.key, 'orphan-1'),
    409,
    'idempotency_key_reused',
    'another body while in flight',
  )
  t.equal(await clientAddedEvents(ts, 'Orphan Co'), 0)

  // That process died: once the claim is older than the in-flight timeout, the same request takes it over.
  await ts.database.pool.query(`update idempotency_keys set locked_at = now() - interval '61 seconds' where key = 'orphan-1'`)
  const taken = await post(ts, 'add_client', payload, org.key, 'orphan-1')
  t.equal(taken.statusCode, 200, 'taken over and run')
  t.equal(taken.headers['idempotency-replayed'], undefined)
  t.equal(await clientAddedEvents(ts, 'Orphan Co'), 1)
  if (held.kind === 'claimed') {
    t.equal(await store.complete(held.claim, 500, {}, 'late'), false, 'the orphaned owner can no longer store its answer')
  }
  const replay = await post(ts, 'add_client', payload, org.key, 'orphan-1')
  t.equal(replay.headers['idempotency-replayed'], 'true')
  t.equal(replay.body, taken.body, 'the taker’s answer is the one replayed')

  // 24 hours later the key is free again, for any body.
  await ts.database.pool.query(`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'orphan-1'`)
  const reusedLater = await post(ts, 'add_client', clientPayload('After Expiry Co'), org.key, 'orphan-1')
  t.equal(reusedLater.statusCode, 200, 'an expired key runs anew')
  t.equal(await clientAddedEvents(ts, 'After Expiry Co'), 1)

  const stored = await ts.database.pool.query<{ hours: number }>(
    `select extract(epoch from expires_at - completed_at)::int / 3600 as hours from idempotency_keys where key = 'orphan-1'`,
  )
  t.equal(stored.rows[0]!.hours, 24, 'answers are kept for 24 hours')

  await post(ts, 'add_client', clientPayload('Expiring Co'), org.key, 'expiring-1')
  await ts.database.pool.query(`update idempotency_keys set expires_at = now() - interval '1 hour' where key = 'expiring-1'`)
  t.equal(await store.sweep(), 1, 'the sweep deletes the expired record')
  t.equal(await countRows(ts, 'select count(*)::int as n from idempotency_keys'), 1, 'and keeps the live one')
})
