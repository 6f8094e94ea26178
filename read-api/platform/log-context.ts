import type { FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import type { Caller } from '../caller.js'

/**
 * Who and what a request's log lines are about. Fastify gives each request a child logger carrying its
 * `request_id` (the X-Request-Id answered, and the events' metadata.request_id); these add, once known, the
 * caller (after authentication) and the RPC method, so every later line of the request (errors, "request
 * completed") carries them and an operator can follow one organization or key through the logs. Each field
 * is bound at most once per request: pino appends bindings, and a second one would repeat the JSON key.
 */

/** The caller's organization (null: a platform key) and credential: `key_id` for an API key, `oauth_grant_id` or `user_id` otherwise. */
export function bindCallerToLog(request: FastifyRequest, caller: Caller): void {
  if (boundCallers.has(request)) return
  boundCallers.add(request)
  const credential =
    caller.actor.kind === 'api_key' ? 'key_id' : caller.actor.kind === 'oauth' ? 'oauth_grant_id' : `${caller.actor.kind}_id`
  bind(request, { org_id: caller.orgId, [credential]: caller.actor.id })
}

/** The RPC method the request asks for, as sent (cut to a sane length: it comes from the URL). */
export function bindRpcToLog(request: FastifyRequest, method: string): void {
  if (boundMethods.has(request)) return
  boundMethods.add(request)
  bind(request, { rpc: method.slice(0, 128) })
}

/** buildApp's logger is pino, whose request children can take bindings; fastify types it as its base logger. */
function bind(request: FastifyRequest, bindings: Record<string, unknown>): void {
  const log = request.log as unknown as Partial<Pick<Logger, 'setBindings'>>
  log.setBindings?.(bindings)
}

const boundCallers = new WeakSet<FastifyRequest>()
const boundMethods = new WeakSet<FastifyRequest>()
