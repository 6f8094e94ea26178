import type { FastifyInstance } from 'fastify'
import { callerOf } from '../auth/request-caller.js'
import { invokeRpc, type InvokeRpcDeps } from '../platform/invoke-rpc.js'
import { bindRpcToLog } from '../platform/log-context.js'
import { sharedAnswerJson } from '../platform/shared-answer.js'

// Kept here too: RPC modules that validate nested input import them from this file.
export { describeIssues, issueCode } from '../platform/invoke-rpc.js'

export type RpcRouteDeps = InvokeRpcDeps

/**
 * POST /api/v1/rpc/<method>: authenticate, then the one RPC path (read-api/platform/invoke-rpc.ts: look the
 * method up, deny by default, check scope and org, validate, run, and for writes wait until the projections
 * show what was written). The MCP server's tools run the same path.
 */
export async function rpcRoutes(app: FastifyInstance, deps: RpcRouteDeps): Promise<void> {
  // Idempotency-Key: answers of write methods are recorded and replayed; reads validate the key and run.
  const isWrite = (request: { params: unknown }) =>
    deps.registry.get((request.params as { method: string }).method)?.definition.access === 'write'
  app.post<{ Params: { method: string } }>('/api/v1/rpc/:method', { config: { idempotency: isWrite } }, async (request, reply) => {
    bindRpcToLog(request, request.params.method)
    const caller = await callerOf(request, deps.read)
    const outcome = await invokeRpc(deps, { request, reply, caller, method: request.params.method, params: request.body })
    if (outcome.readYourWrites) reply.header('X-Read-Your-Writes', outcome.readYourWrites)
    // An answer shared by several requests (platform/shared-answer.ts) is serialised once; the same bytes
    // as fastify's serialising of the object below.
    const shared = sharedAnswerJson(outcome.result)
    if (shared !== undefined) return reply.type('application/json; charset=utf-8').send(`{"result":${shared}}`)
    return { result: outcome.result }
  })
}
