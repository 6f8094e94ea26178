import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyRequest } from 'fastify'
import { envelope, toApiError } from '../errors.js'

/**
 * A tool's answer: the RPC's JSON result as text (what every host shows a model) and as
 * `structuredContent: {result}` (for hosts that read structure; the same shape as REST's body).
 */
export function toolResult(result: unknown, meta?: Record<string, unknown>): CallToolResult {
  const structured = { result: result === undefined ? null : result }
  return {
    content: [{ type: 'text', text: JSON.stringify(structured.result) }],
    structuredContent: structured,
    ...(meta && Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  }
}

/**
 * A refused or failed call as a tool error (`isError: true`), carrying the REST error envelope
 * `{error, code, detail?, hint?, request_id}` so the model can act on the code and follow the hint. Unexpected failures are
 * logged and reported as internal_error, as on REST.
 */
export function toolError(error: unknown, request: FastifyRequest): CallToolResult {
  const apiError = toApiError(error)
  if (apiError.status >= 500 && apiError.code === 'internal_error') request.log.error({ err: error }, 'MCP tool call failed')
  const body = envelope(apiError, request.id)
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: { ...body, status: apiError.status },
  }
}
