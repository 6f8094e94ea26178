/**
 * Rate limits: per key and per minute, counted in PostgreSQL so several API processes share
 * one limit; X-RateLimit-* headers on every /api/v1 response, errors included; 429 rate_limited with
 * Retry-After over the limit; unauthenticated calls limited by address; a per-key override.
 *
 * The limiter's clock is pinned (and moved a minute on where a test needs a fresh window), so no assertion
 * depends on when the test runs.
 */
import t, { type Test } from 'tap'
import pino from 'pino'
import { sql } from 'kysely'
import type { LightMyRequestResponse } from 'fastify'
import { openSystem } from '../../ops/system.js'
import { startTestSystem, createOrgWithKey, type TestSystem } from '../support/system.js'
import { expectError } from './helpers.js'

/** 12:00:10 UTC: 50 seconds before the window resets. */
const START = Date.UTC(2026, 10, 22, 12, 0, 10)

function pinnedClock() {
  let ms = START
  return {
    now: () => ms,
    /** Ten seconds into the next minute: a fresh window for every bucket. */
    nextMinute() {
      ms = (Math.floor(ms / 60_000) + 1) * 60_000 + 10_000
    },
  }
}

async function limitedSystem(t: Test, defaultPerMinute: number) {
  const clock = pinnedClock()
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute, now: clock.now } })
  return { ts, clock }
}

const json = { 'content-type': 'application/json' }
const bearer = (key: string) => ({ ...json, authorization: `Bearer ${key}` })

function rpcAs(ts: TestSystem, key: string | null, method: string, body = '{}', remoteAddress = '127.0.0.1') {
  return ts.app.inject({ method: 'POST', url: `/api/v1/rpc/${method}`, headers: key ? bearer(key) : json, payload: body, remoteAddress })
}

function standing(response: LightMyRequestResponse) {
  return {
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
    reset: Number(response.headers['x-ratelimit-reset']),
  }
}

t.test('every /api/v1 response carries the headers: 200, 400, 401, 403, 404, health, unknown routes', async (t) => {
  const { ts, clock } = await limitedSystem(t, 100)
  const org = await createOrgWithKey(ts, 'Acme', 'read')
  clock.nextMinute()
  const cases: [string, number, () => Promise<LightMyRequestResponse>][] = [
    ['200', 200, () => rpcAs(ts, org.key, 'get_organization')],
    ['400 invalid_json', 400, () => rpcAs(ts, org.key, 'get_organization', '{')],
    ['400 validation_failed', 400, () => rpcAs(ts, org.key, 'get_client', '{}')],
    ['403 insufficient_scope', 403, () => rpcAs(ts, org.key, 'add_client', '{}')],
    ['403 method_not_allowed', 403, () => rpcAs(ts, org.key, 'no_such_method')],
    ['404 not_found', 404, () => rpcAs(ts, org.key, 'get_client', '{"client_id": 424242}')],
    ['404 route_not_found', 404, () => ts.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: bearer(org.key) })],
    [
      '415',
      415,
      () =>
        ts.app.inject({
          method: 'POST',
          url: '/api/v1/rpc/get_organization',
          headers: { ...bearer(org.key), 'content-type': 'text/plain' },
          payload: 'x',
        }),
    ],
  ]
  let remaining = 100
  for (const [what, status, request] of cases) {
    const response = await request()
    t.equal(response.statusCode, status, `${what}: status`)
    remaining -= 1
    t.same(standing(response), { limit: 100, remaining, reset: 50 }, `${what}: one more request counted against the key`)
    t.notOk(response.headers['retry-after'], `${what}: no Retry-After below the limit`)
  }

  // Without a (valid) key: the client address's bucket, with the default limit.
  const anonymous = await rpcAs(ts, null, 'get_organization')
  t.equal(anonymous.statusCode, 401)
  t.same(standing(anonymous), { limit: 100, remaining: 99, reset: 50 }, '401: counted against the address')
  const bogus = await rpcAs(ts, 'rrk_not-a-real-key-at-all-000000', 'get_organization')
  t.equal(bogus.statusCode, 401)
  t.same(standing(bogus), { limit: 100, remaining: 98, reset: 50 }, 'an unknown key counts against the address too')
  const health = await ts.app.inject({ method: 'GET', url: '/api/v1/health' })
  t.equal(health.statusCode, 200)
  t.same(standing(health), { limit: 100, remaining: 97, reset: 50 }, 'health is counted (by address)')

  // Outside /api/v1 nothing is counted.
  const outside = await ts.app.inject({ method: 'GET', url: '/elsewhere' })
  t.equal(outside.headers['x-ratelimit-limit'], undefined, 'no headers outside /api/v1')
})

t.test('over the limit: 429 rate_limited with Retry-After, per key, until the window resets', async (t) => {
  const { ts, clock } = await limitedSystem(t, 3)
  const a = await createOrgWithKey(ts, 'Acme')
  clock.nextMinute()
  const b = await createOrgWithKey(ts, 'Bravo')
  clock.nextMinute()

  for (let i = 1; i <= 3; i++) {
    const ok = await rpcAs(ts, a.key, 'get_organization')
    t.equal(ok.statusCode, 200, `call ${i} is within the limit`)
    t.equal(standing(ok).remaining, 3 - i)
  }
  const limited = await rpcAs(ts, a.key, 'get_organization')
  const body = expectError(t, limited, 429, 'rate_limited', 'fourth call')
  t.match(body.detail, /3 requests per minute/)
  t.match(body.hint, /Retry-After/)
  t.equal(limited.headers['retry-after'], '50', 'Retry-After: seconds until the window resets')
  t.same(standing(limited), { limit: 3, remaining: 0, reset: 50 })
  const again = await rpcAs(ts, a.key, 'get_organization', '{')
  t.equal(again.statusCode, 429, 'still limited, whatever the request (even a malformed one)')

  const other = await rpcAs(ts, b.key, 'get_organization')
  t.equal(other.statusCode, 200, 'another key has its own window')
  t.equal(standing(other).remaining, 2)

  clock.nextMinute()
  const next = await rpcAs(ts, a.key, 'get_organization')
  t.equal(next.statusCode, 200, 'a new minute, a new window')
  t.same(standing(next), { limit: 3, remaining: 2, reset: 50 })

  // A write that was refused did nothing: the limiter answers before the route runs.
  for (let i = 0; i < 3; i++) await rpcAs(ts, a.key, 'get_organization')
  const refusedWrite = await rpcAs(ts, a.key, 'update_organization_branding', JSON.stringify({ name: 'Renamed' }))
  t.equal(refusedWrite.statusCode, 429)
  clock.nextMinute()
  const branding = await rpcAs(ts, a.key, 'get_organization_branding')
  t.not(branding.json().result.name, 'Renamed', 'the refused write was not applied')
})

t.test('without a key, each client address has its own window with the default limit', async (t) => {
  const { ts } = await limitedSystem(t, 2)
  const from = (address: string) => ts.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: address })
  t.equal((await from('10.0.0.1')).statusCode, 200)
  t.equal((await from('10.0.0.1')).statusCode, 200)
  const limited = await from('10.0.0.1')
  expectError(t, limited, 429, 'rate_limited', 'third anonymous call from one address')
  t.equal(limited.headers['retry-after'], '50')
  const elsewhere = await from('10.0.0.2')
  t.equal(elsewhere.statusCode, 200, 'another address is not limited')
  t.same(standing(elsewhere), { limit: 2, remaining: 1, reset: 50 })
})

t.test('a per-key limit: set_api_key_rate_limit (platform keys only), shown by list_api_keys, cleared with null', async (t) => {
  const { ts, clock } = await limitedSystem(t, 4)
  const org = await createOrgWithKey(ts, 'Acme')
  clock.nextMinute()
  const keys = await ts.call<{ id: number; rate_limit_per_minute: number | null }[]>('list_api_keys', { org_id: org.orgId })
  const keyId = keys[0]!.id
  t.equal(keys[0]!.rate_limit_per_minute, null, 'no limit of its own at first')

  const set = await ts.call('set_api_key_rate_limit', { key_id: keyId, per_minute: 2 })
  t.same(set, { id: keyId, per_minute: 2, effective_per_minute: 2 })
  clock.nextMinute()
  t.equal((await ts.call<{ rate_limit_per_minute: number }[]>('list_api_keys', { org_id: org.orgId }))[0]!.rate_limit_per_minute, 2)

  const first = await rpcAs(ts, org.key, 'get_organization')
  t.same(standing(first), { limit: 2, remaining: 1, reset: 50 }, "the key's own limit is in force")
  t.equal((await rpcAs(ts, org.key, 'get_organization')).statusCode, 200)
  expectError(t, await rpcAs(ts, org.key, 'get_organization'), 429, 'rate_limited', 'third call over a limit of 2')

  // The organization cannot change its own limit.
  clock.nextMinute()
  expectError(
    t,
    await rpcAs(ts, org.key, 'set_api_key_rate_limit', JSON.stringify({ key_id: keyId, per_minute: 1000 })),
    403,
    'platform_only',
  )
  expectError(t, await ts.rpc('set_api_key_rate_limit', { key_id: keyId, per_minute: 0 }), 400, 'validation_failed', 'a limit below 1')
  expectError(t, await ts.rpc('set_api_key_rate_limit', { key_id: 999_999, per_minute: 10 }), 404, 'not_found', 'an unknown key')

  clock.nextMinute()
  t.same(await ts.call('set_api_key_rate_limit', { key_id: keyId, per_minute: null }), {
    id: keyId,
    per_minute: null,
    effective_per_minute: 4,
  })
  const back = await rpcAs(ts, org.key, 'get_organization')
  t.same(standing(back), { limit: 4, remaining: 3, reset: 50 }, 'null returns the key to the default')

  const types: string[] = []
  for await (const event of ts.system.store.readStream(`api_key-${keyId}`)) types.push(event.type)
  t.same(types, ['ApiKeyCreated', 'ApiKeyRateLimitSet', 'ApiKeyRateLimitSet'], 'each change is an event on the key stream')

  clock.nextMinute()
  await ts.call('revoke_api_key', { key_id: keyId })
  expectError(t, await ts.rpc('set_api_key_rate_limit', { key_id: keyId, per_minute: 10 }), 409, 'api_key_revoked')
})

t.test('two API processes on one database share one counter', async (t) => {
  const clock = pinnedClock()
  const rateLimits = { defaultPerMinute: 5, now: clock.now }
  const ts = await startTestSystem(t, { rateLimits })
  const org = await createOrgWithKey(ts, 'Acme')
  const other = await openSystem({ databaseUrl: ts.database.url, log: pino({ level: 'silent' }), rateLimits })
  const otherApp = await other.buildApp()
  t.teardown(async () => {
    await otherApp.close()
    await other.close()
  })
  clock.nextMinute()
  const apps = [ts.app, otherApp]
  const seen: number[] = []
  for (let i = 0; i < 5; i++) {
    const response = await apps[i % 2]!.inject({
      method: 'POST',
      url: '/api/v1/rpc/get_organization',
      headers: bearer(org.key),
      payload: '{}',
    })
    t.equal(response.statusCode, 200, `call ${i + 1} (process ${(i % 2) + 1}) is within the shared limit`)
    seen.push(standing(response).remaining)
  }
  t.same(seen, [4, 3, 2, 1, 0], 'each process sees the calls the other counted')
  for (const app of apps) {
    const limited = await app.inject({ method: 'POST', url: '/api/v1/rpc/get_organization', headers: bearer(org.key), payload: '{}' })
    expectError(t, limited, 429, 'rate_limited', 'over the shared limit')
  }

  // Concurrent calls through both processes: exactly the limit gets through.
  clock.nextMinute()
  const burst = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      apps[i % 2]!.inject({ method: 'POST', url: '/api/v1/rpc/get_organization', headers: bearer(org.key), payload: '{}' }),
    ),
  )
  t.equal(burst.filter((r) => r.statusCode === 200).length, 5, 'five of twelve concurrent calls pass')
  t.equal(burst.filter((r) => r.statusCode === 429).length, 7, 'the rest are 429')
  t.same(
    burst.map((r) => standing(r).remaining).sort((a, b) => a - b),
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4],
    'every response reports a distinct count until the limit',
  )
})

t.test('old windows are swept', async (t) => {
  const { ts, clock } = await limitedSystem(t, 100)
  const org = await createOrgWithKey(ts, 'Acme')
  for (let i = 0; i < 3; i++) {
    clock.nextMinute()
    await rpcAs(ts, org.key, 'get_organization')
  }
  const rows = await ts.system.database.db.selectFrom('rate_limit_windows').select(['bucket', 'window_minute']).execute()
  const minutes = new Set(rows.map((r) => Number(r.window_minute)))
  const current = Math.floor(clock.now() / 60_000)
  t.ok(
    [...minutes].every((m) => m >= current - 1),
    `only the current and the previous minute are kept (kept ${[...minutes].join(',')})`,
  )
})

t.test('when the counter cannot be written, requests go on uncounted (fail open), and counting resumes after', async (t) => {
  const { ts, clock } = await limitedSystem(t, 2)
  const org = await createOrgWithKey(ts, 'Acme')
  clock.nextMinute()
  const db = ts.system.database.db
  await sql`alter table rate_limit_windows rename to rate_limit_windows_away`.execute(db)
  for (let i = 0; i < 3; i++) {
    const response = await rpcAs(ts, org.key, 'get_organization')
    t.equal(response.statusCode, 200, `call ${i + 1} is served although the limit is 2`)
    t.equal(response.headers['x-ratelimit-limit'], undefined, 'no headers it could not compute')
  }
  await sql`alter table rate_limit_windows_away rename to rate_limit_windows`.execute(db)
  const counted = await rpcAs(ts, org.key, 'get_organization')
  t.same(standing(counted), { limit: 2, remaining: 1, reset: 50 }, 'counted again once the table is back')
})
