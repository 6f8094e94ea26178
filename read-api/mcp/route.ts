import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { baseUrlOf } from '../auth/bearer-challenge.js'
import { callerOf } from '../auth/request-caller.js'
import { ApiError } from '../errors.js'
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

/**
 * POST /api/v1/mcp: the MCP server over stateless Streamable HTTP (JSON responses). Authentication,
 * rate limits and the request id are the platform's own hooks, as for /api/v1/rpc/* (a JSON-RPC batch counts
 * one call per message, here); usage is metered here per message, under the RPC's own name for a tool call (read-api/mcp/metering.ts); each
 * request gets a fresh SDK server and transport (`sessionIdGenerator: undefined`), so no state is kept and
 * any API process can answer any request. GET (an SSE stream) and DELETE (a session) answer 405.
 */
export async function mcpRoutes(app: FastifyInstance, deps: McpDeps): Promise<void> {
  app.post(MCP_PATH, async (request, reply) => {
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
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    transport.onerror = (error) => request.log.debug({ err: error }, 'MCP transport refused a request')
    await server.connect(transport)
    try {
      // An empty body is `undefined` after fastify's parser; null makes the SDK answer a JSON-RPC parse error.
      const response = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body ?? null })
      return await sendResponse(reply, response)
    } finally {
      await server.close()
    }
  })

  const postOnly = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Allow', 'POST')
    throw new ApiError('mcp_post_only')
  }
  app.get(MCP_PATH, { exposeHeadRoute: false }, postOnly)
  app.delete(MCP_PATH, postOnly)

  protectedResourceRoute(app, (request) => baseUrlOf(request, deps.publicDocs?.baseUrl))
}
