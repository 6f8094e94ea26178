import { sleep } from '../../../commands/sleep.js'
import { GscProviderError } from './search-analytics.js'

/** The longest a provider's Retry-After may make one call wait; a longer one fails the attempt (the capture retries later). */
const MAX_RETRY_AFTER_MS = 60_000

/**
 * Calls per second to one provider across this process: each call takes the next free slot, so bursts of
 * concurrent captures are spread out instead of meeting Google's per-user quota together.
 */
export class RateLimiter {
  private next = 0

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Waits for a slot (or until `signal` aborts). */
  async take(signal: AbortSignal): Promise<void> {
    const interval = 1000 / Math.max(this.perSecond, 0.001)
    const now = this.now()
    const at = Math.max(now, this.next)
    this.next = at + interval
    if (at > now) await sleep(at - now, signal)
  }
}

export interface RetryPolicy {
  /** Tries per call (1: no retry). */
  readonly maxAttempts: number
  /** The first retry's delay; doubled each time, with jitter. */
  readonly backoffBaseMs: number
  readonly limiter: RateLimiter
  readonly signal: AbortSignal
  /** Called before each retry, for the log. */
  readonly onRetry?: (error: GscProviderError, attempt: number, delayMs: number) => void
}

/**
 * One provider call, bounded: each try waits for the rate limiter; a retryable failure (5xx, 429, timeout,
 * network) is tried again after an exponential backoff (its second half random, so retries of concurrent calls spread out) (or the provider's Retry-After when
 * longer), up to maxAttempts; a refusal (401, 403, 400) is thrown at once. Throws the last error.
 */
export async function boundedCall<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    await policy.limiter.take(policy.signal)
    policy.signal.throwIfAborted()
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof GscProviderError) || !error.retryable || attempt >= policy.maxAttempts || policy.signal.aborted) throw error
      if (error.retryAfterMs !== undefined && error.retryAfterMs > MAX_RETRY_AFTER_MS) throw error
      const backoff = policy.backoffBaseMs * 2 ** (attempt - 1)
      const delay = Math.max(error.retryAfterMs ?? 0, Math.round(backoff / 2 + Math.random() * (backoff / 2)))
      policy.onRetry?.(error, attempt, delay)
      await sleep(delay, policy.signal)
    }
  }
}
