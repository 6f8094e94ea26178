/**
 * The delivery schedule (spec Events 3–4, Limits): 8 attempts in all; after the n-th failed attempt the next
 * waits base·2^(n−1) (1, 2, 4 … 64 minutes with the default base of a minute); a webhook is disabled after 100
 * consecutive failed attempts, and any success resets the count.
 */
export const MAX_ATTEMPTS = 8
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 100
export const DEFAULT_BACKOFF_BASE_MS = 60_000

/** Milliseconds to wait after the `attempt`-th (1-based) attempt failed; null when it was the last. */
export function retryDelayMs(attempt: number, baseMs: number): number | null {
  if (attempt >= MAX_ATTEMPTS) return null
  return baseMs * 2 ** (Math.max(attempt, 1) - 1)
}

/** The outcome of an attempt as a decision: when to try again (null: final) and the webhook's new failure count. */
export function afterAttempt(input: {
  attempt: number
  succeeded: boolean
  consecutiveFailures: number
  now: Date
  baseMs: number
  retries: boolean
}): { final: boolean; nextAttemptAt: Date | null; consecutiveFailures: number; disable: boolean } {
  if (input.succeeded) return { final: true, nextAttemptAt: null, consecutiveFailures: 0, disable: false }
  const consecutiveFailures = input.consecutiveFailures + 1
  const delay = input.retries ? retryDelayMs(input.attempt, input.baseMs) : null
  return {
    final: delay === null,
    nextAttemptAt: delay === null ? null : new Date(input.now.getTime() + delay),
    consecutiveFailures,
    disable: consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE_FAILURES,
  }
}
