/**
 * Usage metering: every authenticated /api/v1 call is counted per organization, key, method
 * and UTC day, in the same statement as the rate-limit counter; get_org_usage reports it, scoped like every
 * org-scoped read (an organization sees only its own usage).
 *
 * The metering clock is pinned, so days are fixed and nothing depends on when the test runs.
 */
import t from 'tap'
import { startTestSystem, createOrgWithKey, type TestSystem } from '../support/system.js'
import { expectError } from './helpers.js'

/** 23:58:00 UTC on 2026-11-22: a day boundary is two minutes away. */
const START = Date.UTC(2026, 10, 22, 23, 58, 0)
const MINUTE = 60_000

interface Report {
  org_id: number | null
  days: number
  from: string
  to: string
  total_calls: number
  by_day: { day: string; calls: number }[]
  by_key: { actor_kind: string; key_id: number | null; key_name: string | null; calls: number }[]
  by_method: { method: string; calls: number }[]
  rows: { day: string; actor_kind: string; key_id: number | null; method: string; calls: number }[]
}

async function meteredSystem(t: Parameters<typeof startTestSystem>[0], defaultPerMinute = 1000) {
  let ms = START
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute, now: () => ms } })
  return { ts, advance: (by: number) => (ms += by) }
}

/** A second key for an organization, with its id. */
async function addKey(ts: TestSystem, orgId: number, name: string): Promise<{ id: number; key: string }> {
  return ts.call<{ id: number; key: string }>('create_api_key', { name, org_id: orgId })
}

const call = (ts: TestSystem, key: string, method: string, body: unknown = {}) => ts.rpc(method, body, key)

t.test('get_org_usage counts calls per day, key and method; an organization sees only its own', async (t) => {
  const { ts, advance } = await meteredSystem(t)
  const acme = await createOrgWithKey(ts, 'Acme')
  const bravo = await createOrgWithKey(ts, 'Bravo')
  const [acmeFirst] = await ts.call<{ id: number }[]>('list_api_keys', { org_id: acme.orgId })
  const second = await addKey(ts, acme.orgId, 'Acme reporting')
  const [bravoKey] = await ts.call<{ id: number }[]>('list_api_keys', { org_id: bravo.orgId })

  // 2026-11-22: the first key: 3 × get_organization, 1 failing get_client (404 is still a call); the second key: 2 × get_organization.
  for (let i = 0; i < 3; i++) t.equal((await call(ts, acme.key, 'get_organization')).statusCode, 200)
  t.equal((await call(ts, acme.key, 'get_client', { client_id: 999_999 })).statusCode, 404)
  for (let i = 0; i < 2; i++) t.equal((await call(ts, second.key, 'get_organization')).statusCode, 200)
  // Bravo's calls never show in Acme's usage.
  for (let i = 0; i < 4; i++) await call(ts, bravo.key, 'get_organization')
  // Not metered: calls without a valid key.
  t.equal((await ts.rpc('get_organization', {}, 'rrk_unknown-key-000000000000000000')).statusCode, 401)
  t.equal((await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode, 200)

  // 2026-11-23 (the clock crosses midnight UTC): one more call by the first key, then the report.
  advance(3 * MINUTE)
  t.equal((await call(ts, acme.key, 'get_organization')).statusCode, 200)
  const response = await call(ts, acme.key, 'get_org_usage', { days: 7 })
  t.equal(response.statusCode, 200, response.body)
  const report = response.json().result as Report

  t.equal(report.org_id, acme.orgId, 'the caller organization is injected')
  t.same([report.days, report.from, report.to], [7, '2026-11-17', '2026-11-23'])
  t.equal(report.total_calls, 8, '3 + 1 + 2 on the first day, 1 + this call on the second')
  t.same(report.by_day, [
    { day: '2026-11-17', calls: 0 },
    { day: '2026-11-18', calls: 0 },
    { day: '2026-11-19', calls: 0 },
    { day: '2026-11-20', calls: 0 },
    { day: '2026-11-21', calls: 0 },
    { day: '2026-11-22', calls: 6 },
    { day: '2026-11-23', calls: 2 },
  ])
  t.same(report.by_key, [
    { actor_kind: 'api_key', key_id: acmeFirst!.id, key_name: 'Acme key', calls: 6 },
    { actor_kind: 'api_key', key_id: second.id, key_name: 'Acme reporting', calls: 2 },
  ])
  t.same(report.by_method, [
    { method: 'get_organization', calls: 6 },
    { method: 'get_client', calls: 1 },
    { method: 'get_org_usage', calls: 1 },
  ])
  t.same(report.rows, [
    { day: '2026-11-23', actor_kind: 'api_key', key_id: acmeFirst!.id, method: 'get_org_usage', calls: 1 },
    { day: '2026-11-23', actor_kind: 'api_key', key_id: acmeFirst!.id, method: 'get_organization', calls: 1 },
    { day: '2026-11-22', actor_kind: 'api_key', key_id: acmeFirst!.id, method: 'get_client', calls: 1 },
    { day: '2026-11-22', actor_kind: 'api_key', key_id: acmeFirst!.id, method: 'get_organization', calls: 3 },
    { day: '2026-11-22', actor_kind: 'api_key', key_id: second.id, method: 'get_organization', calls: 2 },
  ])

  // days=1: today only.
  const today = (await call(ts, acme.key, 'get_org_usage', { days: 1 })).json().result as Report
  t.same([today.from, today.to, today.total_calls], ['2026-11-23', '2026-11-23', 3], 'today: two calls before, and this one')

  // Scoping: Acme cannot read Bravo's usage (404, as for any record of another organization) ...
  expectError(t, await call(ts, acme.key, 'get_org_usage', { org_id: bravo.orgId }), 404, 'not_found', "another organization's usage")
  // ... Bravo sees only its own ...
  const bravoReport = (await call(ts, bravo.key, 'get_org_usage', {})).json().result as Report
  t.equal(bravoReport.days, 30, 'days defaults to 30')
  t.same(
    bravoReport.by_key.map((k) => [k.key_id, k.calls]),
    [[bravoKey!.id, 5]],
    "Bravo's four calls and this one, none of Acme's",
  )
  // ... and a platform key passes org_id.
  const viaPlatform = await ts.call<Report>('get_org_usage', { org_id: acme.orgId, days: 7 })
  t.equal(viaPlatform.total_calls, 10, "the platform key sees Acme's calls, the three reports included (the refused one too)")
  t.equal(viaPlatform.org_id, acme.orgId)
  // Without org_id, a platform key sees the platform keys' own usage (the set-up calls above).
  const platform = await ts.call<Report>('get_org_usage', { days: 7 })
  t.equal(platform.org_id, null)
  t.ok(
    platform.by_method.some((m) => m.method === 'create_organization' && m.calls === 2),
    'the platform key created two organizations',
  )
  t.ok(
    platform.rows.every((r) => r.key_id !== acmeFirst!.id && r.key_id !== bravoKey!.id),
    "no organization key's calls",
  )
})

t.test('rate-limited calls are not metered; unknown methods and routes are one bucket each', async (t) => {
  const { ts, advance } = await meteredSystem(t, 3)
  const acme = await createOrgWithKey(ts, 'Acme')
  advance(MINUTE)
  for (let i = 0; i < 5; i++) await call(ts, acme.key, 'get_organization')
  advance(MINUTE)
  await call(ts, acme.key, 'no_such_method')
  await call(ts, acme.key, 'another_invented_name')
  await ts.app.inject({ method: 'GET', url: '/api/v1/health', headers: { authorization: `Bearer ${acme.key}` } })
  advance(MINUTE)
  await ts.app.inject({ method: 'GET', url: '/api/v1/nowhere', headers: { authorization: `Bearer ${acme.key}` } })
  // The calls straddle midnight UTC: two days cover them all.
  const report = (await call(ts, acme.key, 'get_org_usage', { days: 2 })).json().result as Report
  t.same(
    report.by_method.map((m) => [m.method, m.calls]),
    [
      ['get_organization', 3],
      ['(unknown method)', 2],
      ['(no route)', 1],
      ['GET /api/v1/health', 1],
      ['get_org_usage', 1],
    ],
    'three of five calls passed the limit of 3; invented names do not mint rows',
  )
})

t.test('get_org_usage validates days', async (t) => {
  const { ts } = await meteredSystem(t)
  const acme = await createOrgWithKey(ts, 'Acme')
  for (const days of [0, 367, 1.5, '30']) {
    expectError(t, await call(ts, acme.key, 'get_org_usage', { days }), 400, 'validation_failed', `days ${JSON.stringify(days)}`)
  }
  t.equal((await ts.call<Report>('get_org_usage', { org_id: acme.orgId, days: 366 })).by_day.length, 366, 'up to 366 days, one entry each')
  const empty = await ts.call<Report>('get_org_usage', { org_id: 424242, days: 2 })
  t.same([empty.total_calls, empty.rows, empty.by_day.map((d) => d.calls)], [0, [], [0, 0]], 'an organization without calls reports zeros')
})
