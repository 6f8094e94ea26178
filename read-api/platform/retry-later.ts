import { WrongExpectedRevisionError } from '../../commands/event-store/port.js'
import { isStoreUnavailable } from '../../commands/event-store/unavailable.js'

/**
 * The codes of failures of the moment. Declared here rather than as a subset of errors.ts's ErrorCode, since
 * errors.ts maps errors through transientCodeOf and a type import back would close an import cycle; passing
 * them to ApiError still checks that they are registered codes.
 */
export type TransientCode = 'concurrency_conflict' | 'store_unavailable'

/**
 * Failures of the moment, not of the request: the same request sent again later may well succeed. Their
 * codes and how long to wait (Retry-After, in seconds). toApiError maps the errors; the error handler sets the
 * header from the code, so every carrier of a code says the same.
 */
export const RETRY_AFTER_SECONDS: Readonly<Record<TransientCode, number>> & Readonly<Partial<Record<string, number>>> = {
  // Another writer won every attempt the command handler made on the stream: a moment later it is free.
  concurrency_conflict: 1,
  // The database is down or restarting: an embedded one is restarted within seconds (ops/embedded-supervisor.ts).
  store_unavailable: 5,
}

/**
 * The code for an error of the moment, or null. A WrongExpectedRevisionError reaching the edge is a conflict
 * the load → decide → append loops (commands/command-handler.ts and its kin) gave up on after their attempts.
 */
export function transientCodeOf(error: unknown): TransientCode | null {
  if (error instanceof WrongExpectedRevisionError) return 'concurrency_conflict'
  if (isStoreUnavailable(error)) return 'store_unavailable'
  return null
}
