import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Caller } from '../caller.js'
import type { DocsDeps } from '../docs/context.js'
import type { InvokeRpcDeps } from '../platform/invoke-rpc.js'
import type { ToolsMode } from './compact-tools.js'

/** What the MCP server needs from the app: the RPC path's dependencies and the documents'. */
export interface McpDeps extends InvokeRpcDeps, DocsDeps {}

/**
 * One MCP HTTP request. The server is stateless: a fresh MCP server answers each POST, for the caller this
 * request authenticated, so nothing about a client lives in this process between requests.
 */
export interface McpRequestContext {
  readonly deps: McpDeps
  readonly caller: Caller
  /** The carrying HTTP request: its id goes into the events' metadata, like a REST call's. */
  readonly request: FastifyRequest
  /** Headers a call adds (Retry-After, X-Read-Your-Writes, deprecation) go on the HTTP answer. */
  readonly reply: FastifyReply
  /** The tool list the client asked for (read-api/mcp/compact-tools.ts); calls are the same either way. */
  readonly toolsMode: ToolsMode
}
