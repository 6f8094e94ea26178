import type { RpcRegistry } from '../registry.js'
import { isObject, targetMethod } from './credential-check.js'
import { isMetaTool } from './meta-tools.js'

/** JSON-RPC methods an MCP client sends, metered by name; anything else is one bucket (no minting rows by inventing names). */
const PROTOCOL_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
])

/**
 * What each message of an MCP request is metered as, so get_org_usage reads the same whichever way a method is
 * called: a tools/call of an RPC (directly or through call_rpc) counts under the RPC's own name, exactly like
 * POST /api/v1/rpc/<name>; an unknown one under "(unknown method)"; the meta tools and protocol messages under
 * "mcp <method>"; notifications under "mcp notifications". Responses a client sends back are not calls.
 */
export function mcpMeteredMethods(body: unknown, registry: RpcRegistry): string[] {
  const messages = Array.isArray(body) ? body : [body]
  const methods: string[] = []
  for (const message of messages) {
    if (!isObject(message) || typeof message.method !== 'string') continue
    const method = message.method
    if (method === 'tools/call') {
      const name = isObject(message.params) ? message.params.name : undefined
      const target = targetMethod(message)
      if (target !== undefined && registry.get(target)) methods.push(target)
      else if (typeof name === 'string' && isMetaTool(name) && name !== 'call_rpc') methods.push(`mcp tools/call ${name}`)
      else methods.push('(unknown method)')
    } else if (method.startsWith('notifications/')) methods.push('mcp notifications')
    else methods.push(PROTOCOL_METHODS.has(method) ? `mcp ${method}` : 'mcp (other)')
  }
  return methods
}
