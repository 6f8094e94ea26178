/**
 * The MCP compact tool list: the full tools/list is about 114 KB (some 28,000 tokens of
 * an agent's context). A client that puts `?tools=compact` on the MCP URL (or sends `X-MCP-Tools: compact`)
 * gets each tool with a short description tagged with its domain and ending with its parameters' names,
 * grouped by domain, and an open object schema; describe_rpc gives the full schema. Every tool stays callable.
 */
import t from 'tap'
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { paramsSchema } from '../../read-api/docs/schema.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey } from './helpers.js'
import { connectMcp, postMcp } from './mcp-support.js'

const size = (tools: Tool[]) => Buffer.byteLength(JSON.stringify({ tools }))
const resultOf = (answer: unknown) => {
  const r = answer as CallToolResult
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`)
  return (r.structuredContent as { result: any }).result
}

t.test('?tools=compact: the same tools in under a quarter of the bytes, grouped by domain, full schemas by describe_rpc', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const full = (await (await connectMcp(t, ts, org.key)).client.listTools()).tools
  const { client } = await connectMcp(t, ts, org.key, 'tools=compact')
  const compact = (await client.listTools()).tools

  t.strictSame(compact.map((tool) => tool.name).sort(), full.map((tool) => tool.name).sort(), 'the same tools')
  t.ok(size(full) > 100_000, `full: ${size(full)} bytes`)
  t.ok(size(compact) * 4 < size(full), `compact: ${size(compact)} bytes, under 25% of ${size(full)}`)
  t.match(client.getInstructions(), /describe_rpc/, 'the instructions say where the full schemas are')

  const registry = ts.system.registry
  const domains: string[] = []
  for (const tool of compact) {
    const rpc = registry.get(tool.name)
    if (!rpc) continue // the meta tools come last, as in the full list
    const domain = rpc.definition.domain
    const description = tool.description!
    t.ok(description.startsWith(`[${domain}] `), `${tool.name}: tagged with its domain`)
    t.notMatch(description, /\n/, `${tool.name}: one line`)
    // The summary's gist, then the parameters: required ones by name, optional ones with "?" (org_id is injected).
    const schema = paramsSchema(rpc)
    const params = Object.keys(schema.properties ?? {})
      .filter((p) => p !== 'org_id')
      .map((p) => ((schema.required ?? []).includes(p) ? p : `${p}?`))
    t.ok(description.endsWith(` (${params.join(', ')})`), `${tool.name}: every parameter named (${description})`)
    t.ok(description.length - params.join(', ').length <= 150, `${tool.name}: short`)
    t.strictSame(tool.inputSchema, { type: 'object' }, `${tool.name}: an open object; describe_rpc has the schema`)
    const fullTool = full.find((f) => f.name === tool.name)!
    t.equal(
      tool.annotations?.readOnlyHint ?? false,
      fullTool.annotations!.readOnlyHint,
      `${tool.name}: readOnlyHint as in full (MCP's default false)`,
    )
    if (!fullTool.annotations!.readOnlyHint)
      t.equal(
        tool.annotations?.destructiveHint ?? true,
        fullTool.annotations!.destructiveHint,
        `${tool.name}: destructiveHint as in full (MCP's default true)`,
      )
    if (domains.at(-1) !== domain) domains.push(domain)
  }
  t.strictSame(domains, [...new Set(domains)], 'tools grouped by domain: each domain is one run of tools')
  t.strictSame(
    compact.slice(-3).map((tool) => tool.name),
    ['list_rpcs', 'describe_rpc', 'call_rpc'],
  )

  const described = resultOf(await client.callTool({ name: 'describe_rpc', arguments: { method: 'set_aeo_cadence' } }))
  t.strictSame(described.params, full.find((tool) => tool.name === 'set_aeo_cadence')!.inputSchema, 'describe_rpc: the full schema')

  // Every tool stays callable: each read tool answers (a result, or a coded validation error), none is unknown.
  for (const tool of compact.filter((tool) => tool.annotations?.readOnlyHint === true && registry.get(tool.name))) {
    const answer = (await client.callTool({ name: tool.name, arguments: {} })) as CallToolResult
    const code = answer.isError ? JSON.parse((answer.content as { text: string }[])[0]!.text).code : 'ok'
    t.ok(['ok', 'validation_failed'].includes(code), `${tool.name}: called (${code})`)
  }
  const added = resultOf(await client.callTool({ name: 'add_client', arguments: clientPayload('Bakery') }))
  t.type(added, 'number', 'a write tool too')
  t.equal(resultOf(await client.callTool({ name: 'get_client', arguments: { client_id: added } })).name, 'Bakery')
})

t.test('the header selects it too; full is the default; another value is refused', async (t) => {
  const ts = await startTestSystem(t)
  const org = await orgWithKey(ts, 'Acme')
  const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
  const byHeader = await postMcp(ts, list, org.key, { 'x-mcp-tools': 'compact' })
  const byDefault = await postMcp(ts, list, org.key)
  t.equal(byHeader.statusCode, 200)
  t.ok(
    byHeader.body.length * 4 < byDefault.body.length,
    `X-MCP-Tools: compact (${byHeader.body.length} bytes against ${byDefault.body.length})`,
  )
  const fullByQuery = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/mcp?tools=full',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${org.key}` },
    payload: JSON.stringify(list),
  })
  t.equal(fullByQuery.body, byDefault.body, '?tools=full is the default list')
  const bad = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/mcp?tools=tiny',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${org.key}` },
    payload: JSON.stringify(list),
  })
  t.match(expectError(t, bad, 400, 'validation_failed').detail, /tools: expected compact or full/)
})
