import type { FastifyRequest } from 'fastify'
import type { ReadDb } from '../../projections/tables.js'
import type { Caller } from '../caller.js'
import { authenticateApiKey } from './api-keys.js'

const callers = new WeakMap<FastifyRequest, Promise<Caller>>()

/**
 * The request's authenticated caller, resolved once per request: the route, and every hook that needs to
 * know who calls (rate limits, idempotency, metering), share one lookup and one verdict. A failed
 * authentication rejects every time it is asked (401).
 */
export function callerOf(request: FastifyRequest, read: ReadDb): Promise<Caller> {
  let caller = callers.get(request)
  if (!caller) {
    caller = authenticateApiKey(read, request.headers.authorization)
    // Hooks may ask and not await the verdict; the route reports it.
    caller.catch(() => undefined)
    callers.set(request, caller)
  }
  return caller
}
