import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Caller } from '../caller.js'
import { deprecationOf } from '../docs/deprecation.js'
import { jsonSchemaOf, paramsSchema, resultSchema } from '../docs/schema.js'
import { lookUpRpc } from '../platform/invoke-rpc.js'
import { defaultLimitOf, type RegisteredRpc, type RpcRegistry } from '../registry.js'
import { isToolRpc } from './registry-tools.js'

/**
 * The three tools that reach the whole registry: list_rpcs and describe_rpc to find a method, call_rpc to
 * call one that is not a tool of its own (or any method, by name). Their parameters are zod schemas converted
 * by the same function as every RPC's (read-api/docs/schema.ts).
 */
export const ListRpcsParams = z
  .object({
    domain: z.string().optional().describe('Only the methods of this domain (clients, ai-visibility, org-admin, …)'),
    access: z.enum(['read', 'write']).optional().describe('Only read methods, or only write methods'),
  })
  .strict()

export const DescribeRpcParams = z.object({ method: z.string().min(1).describe('An RPC name, as list_rpcs gives it') }).strict()

export const CallRpcParams = z
  .object({
    method: z.string().min(1).describe('An RPC name, as list_rpcs gives it'),
    params: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('The keyword arguments, as a JSON object (describe_rpc shows them); default {}'),
  })
  .strict()

export const META_TOOLS = {
  list_rpcs: ListRpcsParams,
  describe_rpc: DescribeRpcParams,
  call_rpc: CallRpcParams,
} as const

export type MetaToolName = keyof typeof META_TOOLS

export function isMetaTool(name: string): name is MetaToolName {
  return Object.hasOwn(META_TOOLS, name)
}

const inputSchemaOf = (schema: z.ZodObject) => jsonSchemaOf(schema, 'input') as Tool['inputSchema']

/** The meta tools' definitions (static). */
export function metaTools(): Tool[] {
  return [
    {
      name: 'list_rpcs',
      description:
        'Every RPC method of the API (tools and the rest): name, domain, access, summary, whether your key may call it, and the tool that calls it (its own, or call_rpc).',
      inputSchema: inputSchemaOf(ListRpcsParams),
      annotations: { title: 'list RPC methods', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'describe_rpc',
      description: "One RPC method in full: summary, access, pagination, deprecation, and its parameters' and result's JSON Schemas.",
      inputSchema: inputSchemaOf(DescribeRpcParams),
      annotations: { title: 'describe an RPC method', readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'call_rpc',
      description:
        'Calls any RPC method by name with its keyword arguments, exactly as POST /api/v1/rpc/<method> would (same scopes, organization scoping and errors). Use it for methods that are not tools of their own (list_rpcs says which).',
      inputSchema: inputSchemaOf(CallRpcParams),
      // It may run a write, a delete included: hosts should ask.
      annotations: { title: 'call an RPC method', readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
  ]
}

/** The tool that calls a method: its own name when it is a tool, else call_rpc. */
const toolOf = (rpc: RegisteredRpc) => (isToolRpc(rpc) ? rpc.definition.name : 'call_rpc')

const mayCall = (caller: Caller, rpc: RegisteredRpc) =>
  caller.scopes.includes(rpc.definition.access) &&
  !(caller.sandbox && rpc.definition.access !== 'read') &&
  (!rpc.definition.platformOnly || caller.orgId === null)

/** list_rpcs: the registry in name order, filtered. */
export function listRpcs(registry: RpcRegistry, caller: Caller, params: z.infer<typeof ListRpcsParams>) {
  const methods = registry
    .all()
    .filter(
      (rpc) =>
        (params.domain === undefined || rpc.definition.domain === params.domain) &&
        (params.access === undefined || rpc.definition.access === params.access),
    )
    .sort((a, b) => a.definition.name.localeCompare(b.definition.name))
    .map((rpc) => {
      const d = rpc.definition
      return {
        name: d.name,
        domain: d.domain,
        access: d.access,
        summary: d.summary,
        org_scoped: d.orgScoped,
        platform_only: d.platformOnly === true,
        paginated: d.paginated !== undefined,
        deprecated: d.deprecated !== undefined,
        callable: mayCall(caller, rpc),
        tool: toolOf(rpc),
      }
    })
  return { methods }
}

/** describe_rpc: one method in full; an unknown name is 403 method_not_allowed, as on REST. */
export function describeRpc(registry: RpcRegistry, caller: Caller, params: z.infer<typeof DescribeRpcParams>) {
  const rpc = lookUpRpc(registry, params.method)
  const d = rpc.definition
  const deprecation = deprecationOf(rpc)
  return {
    name: d.name,
    domain: d.domain,
    summary: d.summary,
    access: d.access,
    scopes: [d.access],
    org_scoped: d.orgScoped,
    platform_only: d.platformOnly === true,
    pagination: d.paginated ? { max_limit: d.paginated.maxLimit, default_limit: defaultLimitOf(d.paginated) } : null,
    deprecation: deprecation ? { since: deprecation.since, sunset: deprecation.sunset, replacement: deprecation.replacement } : null,
    callable: mayCall(caller, rpc),
    tool: toolOf(rpc),
    endpoint: `POST /api/v1/rpc/${d.name}`,
    params: paramsSchema(rpc),
    result: resultSchema(rpc),
  }
}
