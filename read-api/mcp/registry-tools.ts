import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { RegisteredRpc, RpcRegistry } from '../registry.js'
import { deprecationOf } from '../docs/deprecation.js'
import { paramDocs, paramsSchema } from '../docs/schema.js'
import { compactRpcTool } from './compact-tools.js'

/**
 * The RPCs served as MCP tools of their own: every organization-scoped one (the day-to-day work of an agency's
 * agent). The rest (platform administration, agent plumbing) stay reachable through call_rpc, so the tool
 * list an MCP host shows its model stays about the organization's data.
 */
export function isToolRpc(rpc: RegisteredRpc): boolean {
  return rpc.definition.orgScoped
}

/** Write methods that remove or revoke something: MCP hosts ask before running a destructive tool. */
const DESTRUCTIVE = /^(delete|remove|revoke|purge|dedupe)_/

/** The tool's description: the summary, what it needs, and each parameter (hosts show only this text). */
function toolDescription(rpc: RegisteredRpc): string {
  const d = rpc.definition
  const lines = [d.summary, '']
  const facts = [`Access: ${d.access} (needs the ${d.access} scope).`]
  if (d.platformOnly) facts.push('Platform (partner) keys only.')
  if (d.paginated) facts.push(`Paginated: limit 1..${d.paginated.maxLimit}, offset.`)
  lines.push(facts.join(' '))
  const deprecation = deprecationOf(rpc)
  if (deprecation) {
    lines.push(
      `Deprecated since ${deprecation.since}; removed after ${deprecation.sunset}.${deprecation.replacement ? ` Use ${deprecation.replacement} instead.` : ''}`,
    )
  }
  const params = paramDocs(rpc)
  if (params.length > 0) {
    lines.push('', 'Parameters:')
    for (const p of params) {
      const extra = [p.type, p.required ? 'required' : 'optional', p.default === undefined ? null : `default ${JSON.stringify(p.default)}`]
        .filter(Boolean)
        .join(', ')
      lines.push(`- ${p.name} (${extra})${p.description ? `: ${p.description}` : ''}`)
    }
  }
  return lines.join('\n')
}

/**
 * One RPC as an MCP tool. The input schema is the RPC's parameters exactly as OpenAPI documents them (one
 * JSON-Schema conversion, read-api/docs/schema.ts). No outputSchema: results are not always objects, so they
 * travel as `structuredContent: {result}`, like REST's `{result}`.
 */
export function rpcTool(rpc: RegisteredRpc): Tool {
  const d = rpc.definition
  const readOnly = d.access === 'read'
  return {
    name: d.name,
    description: toolDescription(rpc),
    inputSchema: paramsSchema(rpc) as Tool['inputSchema'],
    annotations: {
      title: d.name.replace(/_/g, ' '),
      readOnlyHint: readOnly,
      ...(readOnly ? {} : { destructiveHint: DESTRUCTIVE.test(d.name) }),
      // Everything the tool touches is this service's own data: no open world.
      openWorldHint: false,
    },
  }
}

const cached = new WeakMap<RpcRegistry, Tool[]>()
const cachedCompact = new WeakMap<RpcRegistry, Tool[]>()

/** Every tool-RPC as a tool, by name; built once per registry (the schemas only change with the code). */
export function registryTools(registry: RpcRegistry): Tool[] {
  let tools = cached.get(registry)
  if (!tools) {
    tools = registry
      .all()
      .filter(isToolRpc)
      .sort((a, b) => a.definition.name.localeCompare(b.definition.name))
      .map(rpcTool)
    cached.set(registry, tools)
  }
  return tools
}

/** The compact list: the same tools, grouped by domain (domains and names in order), each short; built once per registry. */
export function compactRegistryTools(registry: RpcRegistry): Tool[] {
  let tools = cachedCompact.get(registry)
  if (!tools) {
    const full = new Map(registryTools(registry).map((tool) => [tool.name, tool]))
    tools = registry
      .all()
      .filter(isToolRpc)
      .sort((a, b) => a.definition.domain.localeCompare(b.definition.domain) || a.definition.name.localeCompare(b.definition.name))
      .map((rpc) => compactRpcTool(rpc, full.get(rpc.definition.name)!))
    cachedCompact.set(registry, tools)
  }
  return tools
}
