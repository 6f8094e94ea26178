import type { FastifyRequest } from 'fastify'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { ApiError } from '../errors.js'
import { bindCallerToLog } from '../platform/log-context.js'
import { authenticateApiKey } from './api-keys.js'
import { authenticateOAuthToken } from './oauth-tokens.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by buildApp: the service clock (OAuth access tokens expire by it; tests inject one). */
    serviceClock?: () => Date
  }
}

const callers = new WeakMap<FastifyRequest, Promise<Caller>>()

/** The bearer credential of the request: an `rrk_` API key or an `rro_` OAuth access token. */
function authenticate(request: FastifyRequest, read: ReadDb): Promise<Caller> {
  const authorization = request.headers.authorization
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  const token = match?.[1]
  if (token?.startsWith('rro_')) return authenticateOAuthToken(read, token, (request.server.serviceClock ?? (() => new Date()))())
  if (token === undefined && authorization)
    return Promise.reject(new ApiError('unauthorized', 'no bearer token in the Authorization header'))
  return authenticateApiKey(read, authorization)
}

/**
 * The request's authenticated caller, resolved once per request: the route, and every hook that needs to
 * know who calls (rate limits, idempotency, metering), share one lookup and one verdict. A failed
 * authentication rejects every time it is asked (401).
 */
export function callerOf(request: FastifyRequest, read: ReadDb): Promise<Caller> {
  let caller = callers.get(request)
  if (!caller) {
    caller = authenticate(request, read)
    // Hooks may ask and not await the verdict; the route reports it.
    caller.then(
      (c) => bindCallerToLog(request, c),
      () => undefined,
    )
    callers.set(request, caller)
  }
  return caller
}

/**
 * The `rrk_` API key of the request, when that is its credential: the rate-limit hook looks such a key up in
 * the same statement that counts the request (read-api/platform/key-count.ts) and hands the verdict over with
 * `settleCaller`. Undefined for anything else (OAuth tokens, no or malformed credentials).
 */
export function apiKeyTokenOf(request: FastifyRequest): string | undefined {
  if (callers.has(request)) return undefined
  const authorization = request.headers.authorization
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null
  const token = match?.[1]
  return token?.startsWith('rrk_') ? token : undefined
}

/** Records the request's caller when it was resolved elsewhere (see `apiKeyTokenOf`); later `callerOf` calls answer it. */
export function settleCaller(request: FastifyRequest, caller: Promise<Caller>): void {
  caller.then(
    (c) => bindCallerToLog(request, c),
    () => undefined,
  )
  callers.set(request, caller)
}
