/**
 * The MCP endpoint as HTTP (spec endpoints.md "MCP server", behaviour.md Authentication
 * 6 and Limits): the 401 challenge with the protected-resource metadata URL (RFC 9728) and that document,
 * 403 insufficient_scope as an HTTP status with the scope named, GET/DELETE 405, notifications 202, and the
 * platform's rate-limit, version and request-id headers on MCP answers.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, expectError, keyFor, orgWithKey } from './helpers.js'
import { connectMcp, listeningUrl, postMcp } from './mcp-support.js'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}
const toolCall = (name: string, args: Record<string, unknown>, id = 2) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
})

t.test('without a credential or with a bad one: 401 with the resource-metadata challenge', async (t) => {
  const ts = await startTestSystem(t)
  const base = await listeningUrl(ts)
  const metadataUrl = `${base}/.well-known/oauth-protected-resource/api/v1/mcp`

  await t.rejects(connectMcp(t, ts, undefined), { code: 401, message: /unauthorized/ }, "the SDK's client is refused without a key")
  const none = await fetch(`${base}/api/v1/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initialize),
  })
  t.equal(none.status, 401)
  t.equal(none.headers.get('www-authenticate'), `Bearer realm="RankRelay", resource_metadata="${metadataUrl}"`)
  t.match(await none.json(), { code: 'unauthorized', hint: /Bearer/ })
  t.ok(none.headers.get('x-ratelimit-limit'), 'counted by address, with the headers')

  const bad = await postMcp(ts, initialize, 'rrk_not_a_key')
  expectError(t, bad, 401, 'unauthorized')
  // The listen address, whatever Host the request carried (inject sends localhost:80).
  t.equal(bad.headers['www-authenticate'], `Bearer realm="RankRelay", resource_metadata="${metadataUrl}", error="invalid_token"`)

  const rest = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/get_all_clients',
    headers: { 'content-type': 'application/json' },
    payload: '{}',
  })
  t.equal(rest.statusCode, 401)
  t.match(
    String(rest.headers['www-authenticate']),
    /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1\/mcp"/,
    'REST 401s carry the same challenge',
  )

  const metadata = await fetch(metadataUrl)
  t.equal(metadata.status, 200, 'the metadata document is public')
  t.match(metadata.headers.get('content-type'), /^application\/json/)
  t.same(await metadata.json(), {
    resource: `${base}/api/v1/mcp`,
    resource_name: 'RankRelay MCP server',
    authorization_servers: [base],
    scopes_supported: ['read', 'write', 'jobs', 'offline_access'],
    bearer_methods_supported: ['header'],
    resource_documentation: `${base}/developers.md#mcp`,
  })
})

t.test('a read-only key: read tools work, a write tool is 403 insufficient_scope naming the scope', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const readOnly = await keyFor(ts, org.orgId, 'read')
  const { client, exchanges } = await connectMcp(t, ts, readOnly.key)
  const listed = await client.callTool({ name: 'get_all_clients', arguments: {} })
  t.notOk(listed.isError, 'a read tool answers')

  const before = await eventCount(ts)
  await t.rejects(
    client.callTool({ name: 'add_client', arguments: clientPayload('Nope') }),
    { code: 403, message: /insufficient_scope/ },
    "the SDK's client sees the 403",
  )
  const refused = exchanges.at(-1)!
  t.equal(refused.status, 403)
  t.match(
    refused.headers.get('www-authenticate'),
    /^Bearer realm="RankRelay", resource_metadata="[^"]+", error="insufficient_scope", scope="write"$/,
  )

  const raw = await postMcp(ts, toolCall('call_rpc', { method: 'add_client', params: clientPayload('Nope') }), readOnly.key)
  const body = expectError(t, raw, 403, 'insufficient_scope', 'call_rpc of a write method')
  t.match(body.detail, /write scope/)
  const batch = await postMcp(ts, [toolCall('get_all_clients', {}, 3), toolCall('add_client', clientPayload('Nope'), 4)], readOnly.key)
  expectError(t, batch, 403, 'insufficient_scope', 'a batch with one write is refused whole')
  t.equal(await eventCount(ts), before, 'nothing was written')
})

t.test('GET and DELETE answer 405 with Allow: POST; a notification 202 without a body', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  for (const method of ['GET', 'DELETE'] as const) {
    const response = await ts.app.inject({
      method,
      url: '/api/v1/mcp',
      headers: { authorization: `Bearer ${org.key}`, accept: 'text/event-stream' },
    })
    expectError(t, response, 405, 'mcp_post_only', method)
    t.equal(response.headers.allow, 'POST', `${method}: Allow`)
  }
  const notification = await postMcp(ts, { jsonrpc: '2.0', method: 'notifications/initialized' }, org.key)
  t.equal(notification.statusCode, 202)
  t.equal(notification.body, '', 'no body')
  t.ok(notification.headers['x-ratelimit-remaining'] !== undefined, 'rate-limit headers on the 202 too')
})

t.test('every MCP answer carries the platform headers; requests are rate-limited and metered per key', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const { client, exchanges } = await connectMcp(t, ts, org.key)
  await client.listTools()
  await client.callTool({ name: 'get_all_clients', arguments: {} })
  const posts = exchanges.filter((e) => e.method === 'POST')
  t.ok(posts.length >= 3, `${posts.length} POSTs (initialize, initialized, list, call)`)
  for (const post of posts) {
    t.ok(
      post.headers.get('x-ratelimit-limit') && post.headers.get('x-ratelimit-remaining') && post.headers.get('x-ratelimit-reset'),
      `${post.status}: X-RateLimit-*`,
    )
    t.ok(post.headers.get('x-service-api-version'), `${post.status}: X-Service-API-Version`)
    t.ok(post.headers.get('x-request-id'), `${post.status}: X-Request-Id`)
  }
  t.ok(
    exchanges.some((e) => e.method === 'GET' && e.status === 405),
    'the client tried the GET stream and was told 405',
  )

  const usage = await ts.call<{ by_method: { method: string; calls: number }[] }>('get_org_usage', { days: 1 }, org.key)
  const calls = (method: string) => usage.by_method.find((m) => m.method === method)?.calls ?? 0
  t.equal(calls('get_all_clients'), 1, 'a tool call is metered under the RPC name, as on REST')
  t.equal(calls('mcp tools/list'), 1, 'tools/list')
  t.equal(calls('mcp initialize'), 1, 'initialize')
  t.equal(calls('mcp notifications'), 1, 'the initialized notification')
  t.equal(calls('POST /api/v1/mcp'), 0, 'not one bucket for the whole endpoint')
  await postMcp(ts, toolCall('call_rpc', { method: 'get_all_clients', params: {} }), org.key)
  await postMcp(ts, toolCall('no_such_tool', {}), org.key)
  const after = await ts.call<{ by_method: { method: string; calls: number }[] }>('get_org_usage', { days: 1 }, org.key)
  t.equal(after.by_method.find((m) => m.method === 'get_all_clients')?.calls, 2, 'call_rpc counts under the method it runs')
  t.equal(after.by_method.find((m) => m.method === '(unknown method)')?.calls, 1, 'an unknown tool is one bucket')

  await ts.call('set_api_key_rate_limit', { key_id: org.keyId, per_minute: 1 })
  const first = await postMcp(ts, toolCall('get_all_clients', {}), org.key)
  const second = await postMcp(ts, toolCall('get_all_clients', {}), org.key)
  const limited = [first, second].find((r) => r.statusCode === 429)
  t.ok(limited, 'over its limit, the key is refused on MCP')
  if (limited) {
    expectError(t, limited, 429, 'rate_limited')
    t.ok(limited.headers['retry-after'], 'with Retry-After')
  }
})

t.test('Accept: JSON is enough (this server never streams); one that excludes JSON is 406', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const plain = await postMcp(ts, initialize, org.key, { accept: 'application/json' })
  t.equal(plain.statusCode, 200, plain.body)
  t.match(plain.json(), {
    jsonrpc: '2.0',
    id: 1,
    result: { serverInfo: { name: 'rankrelay' }, capabilities: { tools: {}, resources: {}, prompts: {} } },
  })
  const html = await postMcp(ts, initialize, org.key, { accept: 'text/html' })
  t.equal(html.statusCode, 406)
  const garbage = await postMcp(ts, { hello: 'world' }, org.key)
  t.equal(garbage.statusCode, 400, 'not a JSON-RPC message')
  t.match(garbage.json(), { jsonrpc: '2.0', error: { code: -32700 } })
})
