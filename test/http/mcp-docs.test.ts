/**
 * The MCP server's resources, prompts and the public sandbox (spec behaviour.md "what
 * the service does" 8): the guide, llms.txt and the OpenAPI document as resources with the same text as over
 * HTTP, the documented workflows as prompts, and the sandbox key reading through MCP but never writing.
 */
import t from 'tap'
import type { CallToolResult, TextResourceContents } from '@modelcontextprotocol/sdk/types.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { WORKFLOWS } from '../../read-api/docs/workflows.js'
import { resetSandbox } from '../../ops/sandbox/seed.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, eventCount, orgWithKey } from './helpers.js'
import { connectMcp, listeningUrl, postMcp } from './mcp-support.js'

t.test('resources: the guide, the orientation text and the OpenAPI document, as served over HTTP', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read')
  const base = await listeningUrl(ts)
  const { client } = await connectMcp(t, ts, org.key)
  const { resources } = await client.listResources()
  t.same(
    resources.map((r) => [r.uri, r.mimeType]),
    [
      [`${base}/developers.md`, 'text/markdown'],
      [`${base}/llms.txt`, 'text/plain'],
      [`${base}/api/v1/openapi.json`, 'application/json'],
    ],
  )
  for (const resource of resources) {
    const { contents } = await client.readResource({ uri: resource.uri })
    const text = (contents[0] as TextResourceContents).text
    const served = await (await fetch(resource.uri)).text()
    if (resource.mimeType === 'application/json') t.same(JSON.parse(text), JSON.parse(served), `${resource.name}: the served document`)
    else t.equal(text, served, `${resource.name}: the served text`)
  }
  await t.rejects(client.readResource({ uri: `${base}/secrets.txt` }), { code: -32002 }, 'an unknown resource: resource not found')
})

t.test('prompts: every documented workflow, naming the tool (or HTTP operation) of each step', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read')
  const { client } = await connectMcp(t, ts, org.key)
  const { prompts } = await client.listPrompts()
  t.same(
    prompts.map((p) => p.name),
    WORKFLOWS.map((w) => w.workflowId),
    'one prompt per workflow',
  )
  t.ok(
    prompts.some((p) => p.name === 'ai_visibility') && prompts.some((p) => p.name === 'organization_export'),
    'AI Visibility and export among them',
  )

  for (const workflow of WORKFLOWS) {
    const prompt = await client.getPrompt({ name: workflow.workflowId, arguments: { client_id: '42' } })
    t.equal(prompt.messages.length, 1)
    const text = (prompt.messages[0]!.content as { text: string }).text
    t.match(text, /client 42/, `${workflow.workflowId}: about the given client`)
    for (const step of workflow.steps) t.match(text, step.operationId, `${workflow.workflowId}: names ${step.operationId}`)
  }
  const visibility = (await client.getPrompt({ name: 'ai_visibility' })).messages[0]!.content as { text: string }
  t.match(visibility.text, 'tool `generate_aeo_questions`', 'an organization RPC step is a tool')
  t.match(visibility.text, '`call_rpc` with method `claim_aeo_runs`', 'an agent RPC goes through call_rpc')
  t.match(visibility.text, /get_all_clients/, 'without a client, the model is told how to find one')
  const exported = (await client.getPrompt({ name: 'organization_export' })).messages[0]!.content as { text: string }
  t.match(exported.text, 'HTTP `POST /api/v1/jobs`', 'a REST step names its HTTP operation')

  await t.rejects(client.getPrompt({ name: 'make_coffee' }), { code: -32602 }, 'an unknown prompt')
  await t.rejects(
    client.getPrompt({ name: 'ai_visibility', arguments: { client_id: 'x' } }),
    { code: -32602 },
    'a client_id that is not an id',
  )
})

t.test('the sandbox key reads through MCP and cannot write', async (t) => {
  const ts = await startTestSystem(t)
  const seeded = await resetSandbox({
    write: ts.system.write,
    read: ts.system.read,
    db: ts.system.database.db,
    watermark: ts.system.watermark,
    log: ts.system.log,
  })
  const other = await orgWithKey(ts, 'Real Agency')
  const otherClient = await ts.call<number>('add_client', clientPayload('Real Client'), other.key)
  const { client, exchanges } = await connectMcp(t, ts, SANDBOX_KEY)

  const clients = (await client.callTool({ name: 'get_all_clients', arguments: {} })) as CallToolResult
  t.same(
    (clients.structuredContent as { result: { id: number }[] }).result.map((c) => c.id),
    [seeded.clientId],
    'the fictional client only',
  )
  const summary = (await client.callTool({ name: 'get_aeo_summary', arguments: { client_id: seeded.clientId } })) as CallToolResult
  t.notOk(summary.isError, 'AI Visibility reads work')
  const foreign = (await client.callTool({ name: 'get_client', arguments: { client_id: otherClient } })) as CallToolResult
  t.match(foreign, { isError: true, structuredContent: { code: 'not_found' } }, 'another organization is invisible')

  const before = await eventCount(ts)
  await t.rejects(
    client.callTool({ name: 'add_client', arguments: clientPayload('Nope') }),
    { code: 403, message: /sandbox_read_only/ },
    'a write tool: 403',
  )
  t.equal(exchanges.at(-1)!.status, 403)
  const viaCallRpc = await postMcp(
    ts,
    {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'call_rpc', arguments: { method: 'set_aeo_cadence', params: { client_id: seeded.clientId } } },
    },
    SANDBOX_KEY,
  )
  t.equal(viaCallRpc.statusCode, 403)
  t.match(viaCallRpc.json(), { code: 'sandbox_read_only', hint: /own key/ })
  t.equal(await eventCount(ts), before, 'nothing was written')
})

t.test('the documents describe the MCP server as served', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme', 'read')
  const openapi = (await ts.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  const mcp = openapi.paths['/api/v1/mcp'].post
  t.equal(mcp['x-available'], undefined, 'the MCP operation is not marked planned')
  t.match(mcp.description, /isError/)
  t.ok(openapi.paths['/.well-known/oauth-protected-resource/api/v1/mcp'].get, 'the RFC 9728 document is documented')
  t.notMatch(openapi.info.description, /POST \/api\/v1\/mcp/, 'not among the planned endpoints')
  const guide = (await ts.app.inject({ method: 'GET', url: '/developers.md' })).body
  t.match(guide, /\n## MCP\n/)
  t.match(guide, /call_rpc\(method, params\)/)
  t.match((await ts.app.inject({ method: 'GET', url: '/llms.txt' })).body, /\/api\/v1\/mcp/)
  const capabilities = await ts.app.inject({ method: 'GET', url: '/api/v1/capabilities', headers: { authorization: `Bearer ${org.key}` } })
  const listed = capabilities.json().mcp
  t.same(listed.tools.length, ts.system.registry.all().filter((r) => r.definition.orgScoped).length, 'capabilities lists the tools')
  t.same(listed.meta_tools, ['list_rpcs', 'describe_rpc', 'call_rpc'])
})
