/**
 * How long a rank provider call waits before its next try: exponential (base, 2×base, 4×base, …) with "equal
 * jitter" (half the step fixed, half random), so the retries of many tasks failing together spread out
 * instead of hitting a recovering provider at once. A provider's own Retry-After wins when it is longer.
 * `random` is a number in [0, 1) from the caller (the domain has no randomness of its own).
 */

/** The longest wait between two tries of one call, whatever the base or the Retry-After. */
export const MAX_BACKOFF_MS = 60_000

export function backoffMs(failedTries: number, baseMs: number, random: number, retryAfterMs?: number | null): number {
  const step = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, failedTries - 1))
  const jittered = step / 2 + (step / 2) * Math.min(Math.max(random, 0), 1)
  const wait = retryAfterMs !== undefined && retryAfterMs !== null && retryAfterMs > jittered ? retryAfterMs : jittered
  return Math.min(MAX_BACKOFF_MS, Math.max(0, Math.round(wait)))
}
