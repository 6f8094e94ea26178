import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { docsContext } from '../docs/context.js'
import { API_VERSION } from '../version.js'
import { COMPACT_INSTRUCTIONS } from './compact-tools.js'
import type { McpRequestContext } from './context.js'
import { getPrompt, listPrompts } from './prompts.js'
import { listResources, readResource } from './resources.js'
import { callTool, listTools } from './tool-calls.js'

const INSTRUCTIONS = [
  "RankRelay's API (search tracking and AI Visibility for agencies) as MCP tools.",
  'Every organization-scoped RPC is a tool of its own; list_rpcs and describe_rpc find any method, and call_rpc calls the rest.',
  "A tool answers the RPC's JSON result; a failed call answers isError with {error, code, detail, hint}: act on code, follow hint.",
  'Your organization is implied by your credentials. Resources: the developer guide, llms.txt and the OpenAPI document. Prompts: the workflows.',
].join(' ')

/**
 * The MCP server for one HTTP request (low-level SDK Server: the tools' schemas are the registry's JSON
 * Schemas, and every call goes through the one RPC path, so nothing here validates or authorizes on its own).
 */
export function mcpServer(ctx: McpRequestContext): Server {
  const server = new Server(
    { name: 'rankrelay', title: 'RankRelay', version: API_VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: ctx.toolsMode === 'compact' ? `${INSTRUCTIONS} ${COMPACT_INSTRUCTIONS}` : INSTRUCTIONS,
    },
  )
  const docs = () => docsContext(ctx.request, ctx.deps)
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools(ctx) }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(ctx, request.params.name, request.params.arguments))
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: listResources(docs()) }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(docs(), request.params.uri))
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }))
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(docs(), request.params.name, request.params.arguments))
  return server
}
