/** GET /api/v1/health: public liveness with row counts from the read models. */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './helpers.js'

interface Health {
  status: string
  version: string
  event_store: string
  projections: { position: string | null; events_applied: number; updated_at: string | null }
  counts: { organizations: number; clients: number; api_keys: number; events: number }
}

t.test('health is public and its counts follow what was created', async (t) => {
  const ts = await startTestSystem(t)
  const health = async (headers: Record<string, string> = {}) => {
    const response = await ts.app.inject({ method: 'GET', url: '/api/v1/health', headers })
    t.equal(response.statusCode, 200, 'health answers 200')
    t.equal(response.headers['x-service-api-version'], '1.0.0', 'version header')
    t.ok(response.headers['x-request-id'], 'request id header')
    return response.json() as Health
  }

  const initial = await health()
  t.equal(initial.status, 'ok')
  t.equal(initial.version, '1.0.0')
  t.equal(initial.event_store, 'postgres')
  t.same(
    { organizations: initial.counts.organizations, clients: initial.counts.clients, api_keys: initial.counts.api_keys },
    { organizations: 0, clients: 0, api_keys: 1 },
    'a fresh system: only the platform key',
  )
  t.equal(initial.counts.events, initial.projections.events_applied)

  const a = await orgWithKey(ts, 'A')
  const b = await orgWithKey(ts, 'B')
  await ts.call('add_client', clientPayload('One'), a.key)
  await ts.call('add_client', clientPayload('Two', { status: 'deleted' }), a.key)
  await ts.call('add_client', clientPayload('Three', { services: ['SEO'] }), b.key)

  const after = await health()
  t.equal(after.status, 'ok')
  t.same(
    { organizations: after.counts.organizations, clients: after.counts.clients, api_keys: after.counts.api_keys },
    { organizations: 2, clients: 3, api_keys: 3 },
    'two organizations, three clients (deleted ones count), three keys',
  )
  // 1 platform key + 2 × (organization + key) + 3 clients + 1 service = 9 events, plus add_client's
  // reservations: 3 identity claims (get-or-create) and 2 derived slugs (the deleted client reserves none) = 14.
  t.equal(after.counts.events, 14, 'events applied by the projections')
  t.equal(after.projections.events_applied, 14)
  t.type(after.projections.position, 'string')
  t.match(after.projections.updated_at, /^\d{4}-\d{2}-\d{2}T/)

  // Public: no key needed, and a bad key does not matter.
  const withBadKey = await health({ authorization: 'Bearer rrk_not_a_real_key' })
  t.equal(withBadKey.status, 'ok')
  t.same(withBadKey.counts, after.counts)
})

t.test('a projection group stuck on a poison event makes health degraded, saying why; it clears once it moves again', async (t) => {
  const ts = await startTestSystem(t)
  const before = (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json()
  t.equal(before.status, 'ok')
  t.equal(before.projections.failing, null)

  // An event no projector can apply: a client without any of its fields (the log accepts what it is given).
  await ts.system.store.append(
    'client-987654',
    [
      {
        type: 'ClientAdded',
        data: {},
        metadata: {
          org_id: 1,
          actor: { kind: 'system', id: 'test' },
          correlation_id: 'c',
          causation_id: null,
          request_id: null,
          occurred_at: new Date().toISOString(),
          schema_version: 1,
        },
      },
    ],
    'no_stream',
  )
  const deadline = Date.now() + 30_000
  let health: any
  do {
    await new Promise((resolve) => setTimeout(resolve, 100))
    health = (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json()
  } while (health.status !== 'degraded' && Date.now() < deadline)
  t.equal(health.status, 'degraded', 'health says the read models are stuck')
  t.match(health.projections.failing, {
    failing_since: /^\d{4}-/,
    last_failed_at: /^\d{4}-/,
    failures: Number,
    position: before.projections.position,
    error: String,
  })
  t.ok(health.projections.failing.error.length > 0, `with the error: ${health.projections.failing.error}`)
  t.same(health.counts, before.counts, 'reads are still served, from the last good state')

  // A record that is no longer refreshed (the runner recovered, nothing new to apply) stops counting.
  await ts.system.runner.stop()
  await ts.database.pool.query(`update projection_failures set last_failed_at = now() - interval '5 minutes'`)
  t.equal((await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json().status, 'ok', 'a stale failure is not shown')
})

t.test('a failure left by another runner is cleared when this one applies a batch', async (t) => {
  const ts = await startTestSystem(t)
  // The runner of a process that then stopped left its failure; this process's runner takes the group over.
  await ts.system.runner.stop()
  await ts.database.pool.query(
    `insert into projection_failures (group_name, failing_since, last_failed_at, failures, position, error) values ('main', now(), now(), 3, null, 'left by a runner that stopped')`,
  )
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json().status,
    'degraded',
    'another runner’s recent failure shows',
  )
  ts.system.runner.start()
  await orgWithKey(ts, 'A')
  const { rows } = await ts.database.pool.query('select count(*)::int as n from projection_failures')
  t.equal(rows[0].n, 0, 'applying a batch clears it')
  t.equal((await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json().status, 'ok')
})

t.test('a failure left by a lost connection is cleared when the runner comes back with nothing to apply', async (t) => {
  const ts = await startTestSystem(t)
  await orgWithKey(ts, 'A')
  // The database ended the runner's connections (a restart, a blip): it recorded a failure, then nothing new
  // was appended, so no batch comes to clear it.
  await ts.system.runner.stop()
  await ts.database.pool.query(
    `insert into projection_failures (group_name, failing_since, last_failed_at, failures, position, error) values ('main', now(), now(), 1, null, 'terminating connection due to administrator command')`,
  )
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json().status,
    'degraded',
    'the failure shows while no runner runs',
  )
  ts.system.runner.start()
  const deadline = Date.now() + 10_000
  let status: string
  do {
    await new Promise((resolve) => setTimeout(resolve, 50))
    status = (await ts.app.inject({ method: 'GET', url: '/api/v1/health' })).json().status
  } while (status !== 'ok' && Date.now() < deadline)
  t.equal(status, 'ok', 'the runner caught up with the log and cleared it, with no event to apply')
  const { rows } = await ts.database.pool.query('select count(*)::int as n from projection_failures')
  t.equal(rows[0].n, 0)
})
