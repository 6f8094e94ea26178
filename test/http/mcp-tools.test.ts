/**
 * The MCP server's tools through the MCP SDK's own client (spec endpoints.md "MCP
 * server"): every organization-scoped RPC is a tool with its registry schema, plus list_rpcs, describe_rpc and
 * call_rpc; calls run the same path as REST (scopes, organization isolation, audit actor, coded errors).
 */
import t from 'tap'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { paramsSchema } from '../../read-api/docs/schema.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey, streamEvents } from './helpers.js'
import { appWith, bearer, echoRpc, registryWith } from './docs-support.js'
import { connectMcp } from './mcp-support.js'

const resultOf = (answer: unknown) => {
  const r = answer as CallToolResult
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`)
  return (r.structuredContent as { result: any }).result
}

t.test('tools/list: every organization-scoped RPC with its input schema, and the meta tools', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const { client } = await connectMcp(t, ts, org.key)
  const { tools } = await client.listTools()
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  const registry = ts.system.registry
  const orgScoped = registry.all().filter((rpc) => rpc.definition.orgScoped)
  t.ok(orgScoped.length > 20, `${orgScoped.length} organization-scoped RPCs`)
  for (const rpc of orgScoped) {
    const tool = byName.get(rpc.definition.name)
    if (!tool) {
      t.fail(`${rpc.definition.name} is a tool`)
      continue
    }
    t.same(tool.inputSchema, paramsSchema(rpc), `${rpc.definition.name}: input schema is the registry's`)
    t.ok(tool.description?.startsWith(rpc.definition.summary), `${rpc.definition.name}: described by its summary`)
    t.equal(tool.annotations?.readOnlyHint, rpc.definition.access === 'read', `${rpc.definition.name}: readOnlyHint`)
  }
  for (const rpc of registry.all().filter((r) => !r.definition.orgScoped))
    t.notOk(byName.has(rpc.definition.name), `${rpc.definition.name} is reached by call_rpc`)
  for (const meta of ['list_rpcs', 'describe_rpc', 'call_rpc']) t.ok(byName.has(meta), `${meta} is listed`)
  t.equal(tools.length, orgScoped.length + 3, 'nothing else')

  const addClient = byName.get('add_client')!
  t.match(addClient.description, /client/, 'a parameter description is in the text')
  t.equal(byName.get('delete_aeo_query')?.annotations?.destructiveHint, true, 'deletes are destructive')
  t.equal(byName.get('add_client')?.annotations?.destructiveHint, false, 'other writes are not')
})

t.test('a read and a write tool with an API key; the write is audited with the key as actor', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const { client } = await connectMcp(t, ts, org.key)

  const added = await client.callTool({ name: 'add_client', arguments: clientPayload('Bakery') })
  const clientId = resultOf(added)
  t.type(clientId, 'number', 'add_client answers the id')
  t.same(JSON.parse((added.content as { text: string }[])[0]!.text), clientId, 'the result is also the text content')
  t.equal((added._meta as Record<string, unknown>)?.['rankrelay/read_your_writes'], 'reached', 'the write waited for the read models')

  const read = resultOf(await client.callTool({ name: 'get_client', arguments: { client_id: clientId } }))
  t.match(read, { id: clientId, name: 'Bakery', org_id: org.orgId }, 'read-your-writes: the next read sees it')
  const rest = await ts.call('get_client', { client_id: clientId }, org.key)
  t.same(read, rest, 'the same answer as REST')

  const events = await streamEvents(ts, `client-${clientId}`)
  t.ok(events.length > 0, 'events were appended')
  t.match(
    events[0]!.metadata,
    { org_id: org.orgId, actor: { kind: 'api_key', id: org.keyId } },
    "the event's org and actor are the caller's",
  )
})

t.test('refusals are isError results with the error envelope', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const { client } = await connectMcp(t, ts, org.key)

  const invalid = (await client.callTool({ name: 'get_client', arguments: { client_id: 'seven' } })) as CallToolResult
  t.equal(invalid.isError, true)
  t.match(invalid.structuredContent, { code: 'validation_failed', detail: /client_id/, hint: /describe_rpc/ })
  t.match(JSON.parse((invalid.content[0] as { text: string }).text), { code: 'validation_failed' }, 'the envelope as text too')

  const missing = (await client.callTool({ name: 'get_client', arguments: { client_id: 999_999 } })) as CallToolResult
  t.match(missing, { isError: true, structuredContent: { code: 'not_found', status: 404 } })

  const platformOnly = (await client.callTool({
    name: 'call_rpc',
    arguments: { method: 'create_organization', params: { name: 'X' } },
  })) as CallToolResult
  t.match(platformOnly, { isError: true, structuredContent: { code: 'platform_only' } }, 'call_rpc reaches the rest, with their refusals')

  const unknown = (await client.callTool({ name: 'call_rpc', arguments: { method: 'drop_everything' } })) as CallToolResult
  t.match(unknown, { isError: true, structuredContent: { code: 'method_not_allowed' } }, 'deny by default')

  await t.rejects(client.callTool({ name: 'drop_everything', arguments: {} }), /Unknown tool/, 'an unknown tool is a JSON-RPC error')
  await t.rejects(
    client.callTool({ name: 'create_organization', arguments: { name: 'X' } }),
    /Unknown tool/,
    'a non-tool RPC is not a tool',
  )
})

t.test("another organization's records answer through MCP exactly like missing ones", async (t) => {
  const ts = await startTestSystem(t)
  const a = await orgWithKey(ts, 'A')
  const b = await orgWithKey(ts, 'B')
  const bClient = await ts.call<number>('add_client', clientPayload('B client'), b.key)
  const { client } = await connectMcp(t, ts, a.key)

  const foreign = (await client.callTool({ name: 'get_client', arguments: { client_id: bClient } })) as CallToolResult
  const missing = (await client.callTool({ name: 'get_client', arguments: { client_id: 999_999 } })) as CallToolResult
  // The id masked, and request_id left out: each request has its own.
  const masked = (r: CallToolResult, id: number) => ({
    ...JSON.parse(JSON.stringify(r.structuredContent).replaceAll(String(id), '<id>')),
    request_id: undefined,
  })
  t.equal(foreign.isError, true)
  t.same(masked(foreign, bClient), masked(missing, 999_999), 'same envelope as a missing client')

  const viaOrgId = (await client.callTool({ name: 'get_all_clients', arguments: { org_id: b.orgId } })) as CallToolResult
  t.match(
    viaOrgId,
    { isError: true, structuredContent: { code: 'not_found' } },
    'passing another org_id answers like a missing organization',
  )
  const mine = resultOf(await client.callTool({ name: 'get_all_clients', arguments: {} }))
  t.same(mine, [], "a's list does not show b's client")

  const viaCallRpc = (await client.callTool({
    name: 'call_rpc',
    arguments: { method: 'get_client', params: { client_id: bClient } },
  })) as CallToolResult
  t.same(masked(viaCallRpc, bClient), masked(missing, 999_999), 'call_rpc too')
})

t.test('list_rpcs and describe_rpc describe the whole registry', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read')
  const { client } = await connectMcp(t, ts, org.key)

  const { methods } = resultOf(await client.callTool({ name: 'list_rpcs', arguments: {} }))
  t.equal(methods.length, ts.system.registry.all().length, 'every method')
  t.match(
    methods.find((m: { name: string }) => m.name === 'create_organization'),
    { tool: 'call_rpc', org_scoped: false, platform_only: true, callable: false },
  )
  t.match(
    methods.find((m: { name: string }) => m.name === 'add_client'),
    { tool: 'add_client', access: 'write', callable: false },
    'a read key may not write',
  )
  t.match(
    methods.find((m: { name: string }) => m.name === 'get_client'),
    { tool: 'get_client', access: 'read', callable: true },
  )
  const writes = resultOf(await client.callTool({ name: 'list_rpcs', arguments: { access: 'write' } })).methods
  t.ok(writes.length > 0 && writes.every((m: { access: string }) => m.access === 'write'), 'filtered by access')

  const described = resultOf(await client.callTool({ name: 'describe_rpc', arguments: { method: 'get_client' } }))
  t.match(described, { name: 'get_client', access: 'read', tool: 'get_client', endpoint: 'POST /api/v1/rpc/get_client' })
  t.same(described.params, paramsSchema(ts.system.registry.get('get_client')!), 'the params schema is the registry one')
  t.ok(described.result && typeof described.result === 'object', 'and a result schema')

  const bad = (await client.callTool({ name: 'describe_rpc', arguments: {} })) as CallToolResult
  t.match(bad, { isError: true, structuredContent: { code: 'validation_failed', detail: /method/ } })
})

t.test('a new RPC is a tool without touching MCP code; a deprecated one says so and answers the deprecation headers', async (t) => {
  const ts = await startTestSystem(t)
  const registry = registryWith(
    echoRpc('echo_word', { orgScoped: true }),
    echoRpc('echo_old', { orgScoped: true, deprecated: { sunset: '2099-01-01', replacement: 'echo_word' } }),
  )
  const app = await appWith(t, ts, registry, { baseUrl: 'https://api.rankrelay.test' })
  const post = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { ...bearer(ts.platformKey), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      payload: JSON.stringify(body),
    })
  const { tools } = (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).json().result as {
    tools: { name: string; description: string }[]
  }
  t.ok(
    tools.some((tool) => tool.name === 'echo_word'),
    'the new RPC is listed',
  )
  t.match(tools.find((tool) => tool.name === 'echo_old')?.description, /Deprecated .* Use echo_word instead/)

  const called = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo_old', arguments: { word: 'hi' } } })
  t.equal(called.statusCode, 200)
  t.same(called.json().result.structuredContent, { result: { word: 'hi' } }, 'it still works')
  t.ok(called.headers.deprecation, 'Deprecation')
  t.equal(called.headers.sunset, new Date('2099-01-01T00:00:00Z').toUTCString(), 'Sunset')
  t.match(String(called.headers.link), '<https://api.rankrelay.test/developers.md#echo_word>; rel="successor-version"', 'Link')
  const current = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo_word', arguments: { word: 'hi' } } })
  t.equal(current.headers.deprecation, undefined, 'a current method has none')
})
