import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyRequest } from 'fastify'
import { paramsSchema } from '../docs/schema.js'
import { ApiError } from '../errors.js'
import type { RegisteredRpc } from '../registry.js'

/**
 * Which tool list an MCP client gets. `full` (the default): every tool with its whole description and JSON
 * Schema, about 114 KB, some 28,000 tokens of an agent's context before it has done anything. `compact`: the
 * same tools in about a fifth of that: a short description tagged with the tool's domain and ending with the
 * parameters' names, grouped by domain; describe_rpc gives a tool's full schema when the agent needs it.
 */
export type ToolsMode = 'full' | 'compact'

const MODES: readonly ToolsMode[] = ['full', 'compact']

/**
 * The mode a request asks for: `?tools=compact` on the MCP URL (what any MCP client can set: it only takes a
 * URL), else the `X-MCP-Tools` header, else full. Any other value is 400 validation_failed, so a typo is not
 * silently the 114 KB list.
 */
export function toolsModeOf(request: FastifyRequest): ToolsMode {
  const query = (request.query as Record<string, unknown> | undefined)?.tools
  const header = request.headers['x-mcp-tools']
  const asked = typeof query === 'string' ? query : Array.isArray(query) ? query.join(',') : typeof header === 'string' ? header : undefined
  if (asked === undefined) return 'full'
  const mode = asked.trim().toLowerCase()
  if ((MODES as readonly string[]).includes(mode)) return mode as ToolsMode
  throw new ApiError(
    'validation_failed',
    `tools: expected compact or full (the ?tools= query parameter or the X-MCP-Tools header), got ${JSON.stringify(asked.slice(0, 40))}`,
  )
}

/** Longest summary part of a compact description (the tag and the parameters come on top). */
const MAX_SUMMARY = 110

/**
 * The gist of a summary: its first sentence up to the first ";" or "(", cut at a word if still long. The rest
 * (limits, edge cases, what the result holds) is describe_rpc's.
 */
function gist(summary: string): string {
  const head = summary
    .split(/(?<=[.!?])\s+(?=[A-Z(])|;\s|\s\(/)[0]!
    .trim()
    .replace(/[.,:]$/, '')
  if (head.length <= MAX_SUMMARY) return head
  const cut = head.slice(0, MAX_SUMMARY - 1)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), MAX_SUMMARY / 2)).replace(/[\s,;:]+$/, '')}…`
}

/** The parameters as a signature: `(client_id, month?, limit?)`, optional ones marked; org_id is injected for organization keys. */
function signature(rpc: RegisteredRpc): string {
  const schema = paramsSchema(rpc)
  const required = new Set<string>(schema.required ?? [])
  const names = Object.keys(schema.properties ?? {}).filter((name) => name !== 'org_id')
  return `(${names.map((name) => (required.has(name) ? name : `${name}?`)).join(', ')})`
}

/**
 * One RPC as a compact tool: `[domain] gist (params)`, an open object schema (the arguments are validated by
 * the RPC exactly as in full mode, and describe_rpc gives the full schema), and only the annotations that
 * differ from MCP's defaults (readOnlyHint false, destructiveHint true): a read says readOnlyHint, a write
 * that removes nothing says destructiveHint false.
 */
export function compactRpcTool(rpc: RegisteredRpc, full: Tool): Tool {
  const d = rpc.definition
  const annotations = full.annotations?.readOnlyHint
    ? { readOnlyHint: true }
    : full.annotations?.destructiveHint === false
      ? { destructiveHint: false }
      : undefined
  return {
    name: d.name,
    description: `[${d.domain}] ${gist(d.summary)}${d.deprecated ? ' (deprecated)' : ''} ${signature(rpc)}`,
    inputSchema: { type: 'object' },
    ...(annotations ? { annotations } : {}),
  }
}

/** What the server's instructions add in compact mode, so the agent knows where the full schemas are. */
export const COMPACT_INSTRUCTIONS =
  "This is the compact tool list (?tools=compact): each description is a short summary tagged [domain], ending with the parameters (name? is optional); call describe_rpc with a tool's name for its full parameters (types, descriptions, limits) before you first call it."
