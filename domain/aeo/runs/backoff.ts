/**
 * When a failed run may be claimed again. A run that fails (the agent's fail_aeo_run, or a provider error in
 * the server agent) is queued again at once but not claimable before its retry time, so a provider outage
 * spends one attempt per backoff step instead of every attempt within seconds.
 */

/** The default schedule (AEO_RETRY_BACKOFF_SECONDS): 1, 5 and 30 minutes after the 1st, 2nd and 3rd failure. */
export const DEFAULT_RETRY_BACKOFF_SECONDS: readonly number[] = [60, 300, 1800]

/** The longest wait a provider's Retry-After (or an agent's retry_after_seconds) may impose: one day. */
export const MAX_RETRY_AFTER_SECONDS = 86_400

/**
 * Seconds (possibly fractional) to wait after the `attempt`-th claim failed (1-based): the schedule's entry for it, the last
 * entry for every attempt beyond the schedule, 0 for an empty schedule. A `retryAfterSeconds` (a provider
 * 429's Retry-After) replaces the schedule, capped at MAX_RETRY_AFTER_SECONDS.
 */
export function retryDelaySeconds(attempt: number, schedule: readonly number[], retryAfterSeconds?: number | null): number {
  if (retryAfterSeconds !== undefined && retryAfterSeconds !== null && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) {
    return Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS)
  }
  if (schedule.length === 0) return 0
  return Math.max(0, schedule[Math.min(Math.max(attempt, 1), schedule.length) - 1]!)
}

/** The retry time after a failure at `now` (ISO 8601 in, ISO 8601 out). */
export function retryAt(now: string, attempt: number, schedule: readonly number[], retryAfterSeconds?: number | null): string {
  return new Date(Date.parse(now) + retryDelaySeconds(attempt, schedule, retryAfterSeconds) * 1000).toISOString()
}

/** Parses AEO_RETRY_BACKOFF_SECONDS: comma-separated whole seconds, e.g. "60,300,1800"; null when malformed. */
export function parseBackoffSchedule(text: string): number[] | null {
  const parts = text.split(',').map((p) => p.trim())
  if (parts.length === 0 || parts.length > 20) return null
  const values = parts.map((p) => (/^\d{1,6}$/.test(p) ? Number(p) : Number.NaN))
  return values.every((v) => Number.isInteger(v) && v >= 0 && v <= MAX_RETRY_AFTER_SECONDS) ? values : null
}
