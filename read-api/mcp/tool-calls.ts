import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import { ApiError } from '../errors.js'
import { docsContext } from '../docs/context.js'
import { deprecationHeaders, deprecationOf } from '../docs/deprecation.js'
import { describeIssues, invokeRpc } from '../platform/invoke-rpc.js'
import type { McpRequestContext } from './context.js'
import { CallRpcParams, DescribeRpcParams, describeRpc, isMetaTool, ListRpcsParams, listRpcs, metaTools } from './meta-tools.js'
import { compactRegistryTools, isToolRpc, registryTools } from './registry-tools.js'
import { toolError, toolResult } from './tool-result.js'

/**
 * tools/list: every organization-scoped RPC, then list_rpcs, describe_rpc and call_rpc; in compact mode the
 * same tools, short and grouped by domain (read-api/mcp/compact-tools.ts), the meta tools in full.
 */
export function listTools(ctx: McpRequestContext): Tool[] {
  const tools = ctx.toolsMode === 'compact' ? compactRegistryTools(ctx.deps.registry) : registryTools(ctx.deps.registry)
  const clash = tools.find((tool) => isMetaTool(tool.name))
  if (clash) throw new Error(`RPC ${clash.name} has the name of an MCP meta tool; rename it`)
  return [...tools, ...metaTools()]
}

/** The meta tools validate their arguments like an RPC does: a coded validation_failed naming each field. */
function parseArguments<T extends z.ZodObject>(schema: T, args: unknown): z.infer<T> {
  const parsed = schema.safeParse(args ?? {})
  if (!parsed.success) throw new ApiError('validation_failed', describeIssues(parsed.error))
  return parsed.data
}

/**
 * One RPC, through the same function POST /api/v1/rpc/<method> uses (read-api/platform/invoke-rpc.ts). The
 * headers a REST call would answer go on the MCP HTTP answer too: X-Read-Your-Writes, and the deprecation
 * headers of a deprecated method (whatever the outcome, as on REST).
 */
async function runRpc(ctx: McpRequestContext, method: string, params: unknown): Promise<CallToolResult> {
  const registered = ctx.deps.registry.get(method)
  const notice = registered ? deprecationOf(registered) : null
  if (notice) {
    for (const [name, value] of Object.entries(deprecationHeaders(notice, docsContext(ctx.request, ctx.deps).baseUrl)))
      ctx.reply.header(name, value)
  }
  const outcome = await invokeRpc(ctx.deps, { request: ctx.request, reply: ctx.reply, caller: ctx.caller, method, params })
  if (!outcome.readYourWrites) return toolResult(outcome.result)
  ctx.reply.header('X-Read-Your-Writes', outcome.readYourWrites)
  return toolResult(outcome.result, { 'rankrelay/read_your_writes': outcome.readYourWrites })
}

/**
 * tools/call. An unknown tool is a JSON-RPC error (invalid params, as the MCP specification asks); everything
 * the call itself refuses or fails with is an `isError` result carrying the error envelope. (401 and the
 * credential's own 403s never get here: read-api/mcp/credential-check.ts answers them as HTTP statuses.)
 */
export async function callTool(ctx: McpRequestContext, name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const registered = ctx.deps.registry.get(name)
  const isRpcTool = registered !== undefined && isToolRpc(registered)
  if (!isRpcTool && !isMetaTool(name)) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. tools/list lists the tools; call_rpc calls any RPC method by name`)
  }
  try {
    if (isRpcTool) return await runRpc(ctx, name, args)
    switch (name) {
      case 'list_rpcs':
        return toolResult(listRpcs(ctx.deps.registry, ctx.caller, parseArguments(ListRpcsParams, args)))
      case 'describe_rpc':
        return toolResult(describeRpc(ctx.deps.registry, ctx.caller, parseArguments(DescribeRpcParams, args)))
      default: {
        const call = parseArguments(CallRpcParams, args)
        return await runRpc(ctx, call.method, call.params ?? {})
      }
    }
  } catch (error) {
    return toolError(error, ctx.request)
  }
}
