/**
 * Whether an error means "the store cannot be reached right now" (PostgreSQL down, restarting or cutting
 * sessions; EventStoreDB unreachable) rather than a fault in the request or the code. The one place that
 * decides it: the API answers such errors with 503 store_unavailable and Retry-After instead of 500, and the
 * outage watch (store-outage.ts) logs the outage once instead of once per request and per retrying loop.
 * Never throws.
 */

/** Socket-level failures: the server is gone, not listening yet, or the network between is. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND'])

/**
 * SQLSTATEs that say the server or the session is unavailable: class 08 (connection exception), 57P01
 * admin_shutdown (a fast or immediate stop ended the session), 57P02 crash_shutdown (another backend crashed;
 * the postmaster restarts them all), 57P03 cannot_connect_now (starting up, recovering or shutting down).
 */
const SQLSTATE = /^(08...|57P0[123])$/

/** What node-postgres says when a session ends under a query, or a pool cannot get a connection in time. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection terminated due to connection timeout/,
  /the database system is (starting up|shutting down|in recovery mode)/,
]

export function isStoreUnavailable(error: unknown): boolean {
  // A wrapped error (cause) or Node's AggregateError of one refusal per address counts when any part does.
  const seen = new Set<unknown>()
  const check = (e: unknown): boolean => {
    if (typeof e !== 'object' || e === null || seen.has(e)) return false
    seen.add(e)
    const { code, message, type, cause, errors } = e as {
      code?: unknown
      message?: unknown
      type?: unknown
      cause?: unknown
      errors?: unknown
    }
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true
    // @eventstore/db-client: ErrorType.UNAVAILABLE.
    if (type === 'unavailable') return true
    if (typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message))) return true
    if (Array.isArray(errors) && errors.some(check)) return true
    return check(cause)
  }
  return check(error)
}
