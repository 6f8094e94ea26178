import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { callerOf } from '../auth/request-caller.js'
import { ApiError } from '../errors.js'
import { ErrorBody } from '../platform/error-body.js'
import { route, type RouteGroup, type RouteMethod } from '../platform/route.js'
import type { McpDeps } from './context.js'
import { requireCredentialAllowsMessages } from './credential-check.js'
import { MCP_PATH, protectedResourceRoute } from './protected-resource.js'
import { mcpMeteredMethods } from './metering.js'
import { countMoreCalls, meterCalls } from '../platform/rate-limit.js'
import { mcpServer } from './server.js'
import { toolsModeOf } from './compact-tools.js'

/** Hop-by-hop and body-framing headers: meaningless on the in-memory request handed to the SDK. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade', 'expect'])

/** What this server answers in (JSON only, never an event stream); what the SDK insists a client accepts. */
const ACCEPT_BOTH = 'application/json, text/event-stream'

/**
 * The fastify request as the Web-standard Request the SDK's transport reads. Only the headers matter: the body
 * was parsed by fastify (its JSON parser, body limit and 415 for other media types) and is handed over as
 * `parsedBody`. The MCP specification has clients accept both JSON and SSE; since this server only ever
 * answers JSON, an Accept that allows JSON (or none at all, as curl sends) is as good, and only an Accept that
 * excludes JSON gets the SDK's 406.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  const accept = headers.get('accept')
  if (accept === null || /application\/json|\*\/\*|application\/\*/.test(accept)) headers.set('accept', ACCEPT_BOTH)
  return new Request(`${request.protocol}://${request.host}${request.url}`, { method: 'POST', headers })
}

/** Sends the SDK's Web Response through fastify's reply, so that every onSend hook (rate limits, ids) runs. */
async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, name) => {
    reply.header(name, value)
  })
  const text = await response.text()
  return reply.send(text === '' ? undefined : text)
}

const McpQuery = z.object({
  tools: z
    .enum(['full', 'compact'])
    .default('full')
    .describe(
      'Which tools/list to answer: full (the default) or compact. The X-MCP-Tools header does the same; anything else is 400 validation_failed.',
    ),
})

const McpMessage = z.object({
  jsonrpc: z.literal('2.0').describe('The JSON-RPC version'),
  method: z
    .string()
    .describe('initialize, tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get, or a notification'),
  params: z.record(z.string(), z.unknown()).optional().describe("The method's parameters (tools/call: name and arguments)"),
  id: z.union([z.string(), z.number()]).optional().describe('The request id; absent for a notification'),
})

const MCP_DESCRIPTION = [
  'The Model Context Protocol over stateless Streamable HTTP: methods initialize, tools/list, tools/call, resources/list, resources/read, prompts/list, prompts/get; answers are JSON (never an event stream), notifications answer 202.',
  'Tools: every organization-scoped RPC (its parameters as input schema; readOnlyHint for reads) plus list_rpcs, describe_rpc and call_rpc for the rest. A tool result is the RPC result as text and as structuredContent {result}; a refused call is an isError result carrying {error, code, detail, hint}.',
  'Resources: /developers.md, /llms.txt and this document. Prompts: the x-workflows.',
  'Same credentials, scopes, organization isolation, rate limits and metering as REST. 401 carries WWW-Authenticate with resource_metadata (RFC 9728); a tool call the key lacks the scope for (or a sandbox write) is HTTP 403 insufficient_scope (naming the scope) or sandbox_read_only. GET and DELETE answer 405.',
  'A batch counts one call per message against the per-minute rate limit; a batch that does not fit in what is left of the window is refused whole with 429 rate_limited and Retry-After, before any of it runs.',
  'tools=compact (or the X-MCP-Tools header) makes tools/list short: each tool a description tagged [domain] ending with its parameters, grouped by domain, with an open input schema (about a fifth of the full list); describe_rpc gives the full schema. Agents should use it.',
].join('\n\n')

/**
 * POST /api/v1/mcp: the MCP server over stateless Streamable HTTP (JSON responses). Authentication,
 * rate limits and the request id are the platform's own hooks, as for /api/v1/rpc/* (a JSON-RPC batch counts
 * one call per message, here); usage is metered here per message, under the RPC's own name for a tool call (read-api/mcp/metering.ts); each
 * request gets a fresh SDK server and transport (`sessionIdGenerator: undefined`), so no state is kept and
 * any API process can answer any request. The body is a JSON-RPC message or batch the SDK validates itself.
 */
export const mcpRoute = route<McpDeps, z.ZodNever, typeof McpQuery, typeof McpMessage>({
  method: 'POST',
  path: MCP_PATH,
  operationId: 'mcp',
  summary: 'MCP server (Streamable HTTP, stateless JSON-RPC 2.0)',
  description: MCP_DESCRIPTION,
  tag: 'mcp',
  auth: 'bearer',
  query: McpQuery,
  headers: z.object({ 'X-MCP-Tools': z.enum(['full', 'compact']).optional().describe('The same as the tools query parameter') }),
  body: { type: 'application/json', schema: McpMessage, required: true },
  responses: {
    200: {
      description: 'A JSON-RPC response.',
      schema: z.record(z.string(), z.unknown()).describe('The JSON-RPC response (or batch of them)'),
    },
    202: { description: 'An accepted notification (no body).' },
  },
  example: {
    query: { tools: 'compact' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_clients', arguments: { limit: 1 } } },
    response: {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 1,
        result: {
          content: [{ type: 'text', text: '{"result":{"clients":[{"client_id":34,"name":"Acme Dental"}]}}' }],
          structuredContent: { result: { clients: [{ client_id: 34, name: 'Acme Dental' }] } },
        },
      },
    },
  },
  handler: async ({ request, reply, deps }) => {
    const caller = await callerOf(request, deps.read)
    const toolsMode = toolsModeOf(request)
    const methods = mcpMeteredMethods(request.body, deps.registry)
    // Every message of a batch is a call against the per-key limit (the platform's hook counted the HTTP request
    // as one): a batch that does not fit in what is left of the window is refused whole, 429 before any runs.
    await countMoreCalls(request, methods.length - 1, `this batch of ${methods.length} messages`)
    // Metered before any other refusal, as REST meters every authenticated call the rate limit lets through.
    await meterCalls(deps.db, request, caller, methods, deps.settings.rateLimits.now)
    requireCredentialAllowsMessages(request.body, deps.registry, caller)
    const server = mcpServer({ deps, caller, request, reply, toolsMode })
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    transport.onerror = (error) => request.log.debug({ err: error }, 'MCP transport refused a request')
    await server.connect(transport)
    try {
      // An empty body is `undefined` after fastify's parser; null makes the SDK answer a JSON-RPC parse error.
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body ?? null })
      return await sendResponse(reply, response)
    } finally {
      await server.close()
    }
  },
})

/**
 * GET (an SSE stream) and DELETE (a session) answer 405 with Allow: POST: this server keeps no streams and no
 * sessions. No credential is needed to be told so.
 */
function postOnlyRoute(method: Extract<RouteMethod, 'GET' | 'DELETE'>, asks: string) {
  return route<McpDeps>({
    method,
    path: MCP_PATH,
    operationId: `mcp_${method.toLowerCase()}`,
    summary: `Not supported: ${asks} (405)`,
    description: `A Streamable HTTP client may ask for ${asks}; this stateless server keeps none, so it answers 405 mcp_post_only with Allow: POST. Send JSON-RPC messages with POST.`,
    tag: 'mcp',
    auth: 'public',
    // What a Streamable HTTP client sends with these requests; this server issues no session ids, so any is refused alike.
    headers: z.object({
      'Mcp-Session-Id': z.string().optional().describe('The session a client would resume or end: this server issues none'),
    }),
    responses: { 405: { description: 'mcp_post_only.', schema: ErrorBody, headers: { Allow: 'POST' } } },
    example: {
      headers: { 'Mcp-Session-Id': '1868a90c-2f4b-4c8e-9d3a-7e5b6c4d2a10' },
      response: {
        status: 405,
        body: {
          error: 'The MCP endpoint answers POST only',
          code: 'mcp_post_only',
          hint: 'POST JSON-RPC 2.0 messages to /api/v1/mcp: this stateless server has no event stream to GET and no session to DELETE',
          request_id: '5f0c6d0e-8a7b-4c21-9a57-3c1d2e4f6a80',
        },
      },
    },
    ...(method === 'GET' ? { exposeHeadRoute: false } : {}),
    handler: async ({ reply }) => {
      reply.header('Allow', 'POST')
      throw new ApiError('mcp_post_only')
    },
  })
}

export const mcpGetRoute = postOnlyRoute('GET', 'an event stream (GET)')
export const mcpDeleteRoute = postOnlyRoute('DELETE', 'the end of a session (DELETE)')

export const mcpRoutes: RouteGroup<McpDeps> = { routes: [mcpRoute, mcpGetRoute, mcpDeleteRoute, protectedResourceRoute] }
