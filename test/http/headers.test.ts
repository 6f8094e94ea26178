/**
 * Headers on every /api response: X-Service-API-Version (errors and health included) and X-Request-Id
 * (a valid incoming x-request-id is reused and recorded in the events it causes).
 */
import t from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey, rawRpc, streamEvents } from './helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('X-Service-API-Version is on every /api response, errors and health included', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read')
  const json = { 'content-type': 'application/json' }
  const auth = { ...json, authorization: `Bearer ${org.key}` }
  const requests: [string, number, () => Promise<LightMyRequestResponse>][] = [
    ['rpc 200', 200, () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/get_organization', headers: auth, payload: '{}' })],
    [
      'rpc 400 invalid_json',
      400,
      () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/get_organization', headers: auth, payload: '{' }),
    ],
    [
      'rpc 400 validation_failed',
      400,
      () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/get_client', headers: auth, payload: '{}' }),
    ],
    ['rpc 401', 401, () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/get_organization', headers: json, payload: '{}' })],
    ['rpc 403 scope', 403, () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/add_client', headers: auth, payload: '{}' })],
    ['rpc 403 method', 403, () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/nope', headers: auth, payload: '{}' })],
    [
      'rpc 404',
      404,
      () => ts.app.inject({ method: 'POST', url: '/api/v1/rpc/get_client', headers: auth, payload: '{"client_id": 424242}' }),
    ],
    [
      'rpc 413',
      413,
      () =>
        ts.app.inject({
          method: 'POST',
          url: '/api/v1/rpc/get_organization',
          headers: auth,
          payload: `{"x":"${'a'.repeat(1024 * 1024)}"}`,
        }),
    ],
    [
      'rpc 415',
      415,
      () =>
        ts.app.inject({
          method: 'POST',
          url: '/api/v1/rpc/get_organization',
          headers: { ...auth, 'content-type': 'application/xml' },
          payload: '<x/>',
        }),
    ],
    ['GET on an rpc path', 404, () => ts.app.inject({ method: 'GET', url: '/api/v1/rpc/get_organization', headers: auth })],
    ['unknown /api route', 404, () => ts.app.inject({ method: 'GET', url: '/api/v1/nothing-here' })],
    [
      'unknown /api version',
      404,
      () => ts.app.inject({ method: 'POST', url: '/api/v2/rpc/get_organization', headers: auth, payload: '{}' }),
    ],
    ['health', 200, () => ts.app.inject({ method: 'GET', url: '/api/v1/health' })],
    ['health with a query', 200, () => ts.app.inject({ method: 'GET', url: '/api/v1/health?verbose=1' })],
  ]
  for (const [what, status, request] of requests) {
    const response = await request()
    t.equal(response.statusCode, status, `${what}: status ${status}`)
    t.equal(response.headers['x-service-api-version'], '1.0.0', `${what}: X-Service-API-Version`)
    t.ok(response.headers['x-request-id'], `${what}: X-Request-Id`)
    if (status >= 400) {
      const body = response.json() as { error?: unknown; code?: unknown }
      t.equal(typeof body.error, 'string', `${what}: envelope error`)
      t.equal(typeof body.code, 'string', `${what}: envelope code`)
    }
  }
  const routeMissing = (await ts.app.inject({ method: 'GET', url: '/api/v1/nothing-here' })).json()
  t.equal(routeMissing.code, 'route_not_found')
  t.match(routeMissing.hint, /POST \/api\/v1\/rpc/)
})

t.test('X-Request-Id: generated when absent, reused when valid, replaced when not', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const call = (headers: Record<string, string>, method = 'get_organization', payload = '{}') =>
    rawRpc(ts, method, payload, { 'content-type': 'application/json', authorization: `Bearer ${org.key}`, ...headers })

  const generated = await call({})
  t.match(generated.headers['x-request-id'], UUID, 'a UUID when none is sent')
  const another = await call({})
  t.not(another.headers['x-request-id'], generated.headers['x-request-id'], 'a fresh one per request')

  for (const id of ['abc-123', 'trace:01H8X.Z_9', 'a'.repeat(128)]) {
    t.equal((await call({ 'x-request-id': id })).headers['x-request-id'], id, `reused: ${id.slice(0, 20)}`)
  }
  // Echoed on errors too.
  const failed = await rawRpc(ts, 'get_organization', '{}', { 'content-type': 'application/json', 'x-request-id': 'err-req-1' })
  t.equal(failed.statusCode, 401)
  t.equal(failed.headers['x-request-id'], 'err-req-1', 'echoed on a 401')
  const health = await ts.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'health-req' } })
  t.equal(health.headers['x-request-id'], 'health-req', 'echoed on health')

  for (const bad of ['has space', 'a'.repeat(129), 'semi;colon', '<script>', 'new\tline', '']) {
    const response = await call({ 'x-request-id': bad })
    t.equal(response.statusCode, 200)
    t.match(response.headers['x-request-id'], UUID, `replaced: ${JSON.stringify(bad.slice(0, 20))}`)
  }

  // The request id travels into the metadata of the events the request appends.
  const response = await call(
    { 'x-request-id': 'create-client-42' },
    'add_client',
    JSON.stringify(clientPayload('Traced', { services: ['SEO'] })),
  )
  t.equal(response.statusCode, 200)
  t.equal(response.headers['x-request-id'], 'create-client-42')
  const clientId = response.json().result as number
  const events = await streamEvents(ts, `client-${clientId}`)
  t.equal(events.length, 2)
  for (const event of events) {
    t.equal(event.metadata.request_id, 'create-client-42', `${event.type}: request_id recorded`)
    t.equal(event.metadata.correlation_id, 'create-client-42', `${event.type}: correlation_id`)
    t.equal(event.metadata.org_id, org.orgId, `${event.type}: org_id`)
    t.same(event.metadata.actor, { kind: 'api_key', id: org.keyId }, `${event.type}: actor`)
  }
})
