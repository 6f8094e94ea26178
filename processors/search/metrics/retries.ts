import { sleep } from '../../../commands/sleep.js'
import type { ProviderFailure } from '../../../domain/search/metrics/events.js'
import { ProviderCallError } from './provider.js'

export interface RetryPolicy {
  /** SEARCH_PROVIDER_MAX_ATTEMPTS: tries in all (1: no retry). */
  readonly maxAttempts: number
  /** SEARCH_PROVIDER_BACKOFF_BASE_MS: the wait before the second try; each later one doubles it. */
  readonly backoffBaseMs: number
  /** 0-1; the default draws with Math.random (tests pass a fixed one). */
  readonly random?: () => number
}

export type Attempted<T> =
  | {
      readonly ok: true
      readonly value: T
      readonly attempts: number
      readonly lastError: ProviderFailure | null
      readonly costUsd: number
    }
  | { readonly ok: false; readonly error: ProviderFailure; readonly attempts: number; readonly costUsd: number }

/**
 * Exponential backoff with jitter: before try n+1 the wait is backoffBaseMs × 2^(n-1), less a random part of
 * up to half of it, so a provider coming back from an outage is not met by every waiting caller at once. Only failures the
 * provider marks retryable are tried again (outages, rate limits, timeouts); credentials, billing and a
 * refused request end at once. Never throws for a provider failure: the outcome says how it went.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  signal: AbortSignal,
  call: () => Promise<{ value: T; costUsd: number | null }>,
): Promise<Attempted<T>> {
  const random = policy.random ?? Math.random
  let lastError: ProviderFailure | null = null
  let cost = 0
  for (let attempt = 1; ; attempt++) {
    try {
      const { value, costUsd } = await call()
      return { ok: true, value, attempts: attempt, lastError, costUsd: cost + (costUsd ?? 0) }
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error
      cost += error.costUsd ?? 0
      lastError = error.failure
      if (!error.retryable || attempt >= Math.max(1, policy.maxAttempts) || signal.aborted) {
        return { ok: false, error: error.failure, attempts: attempt, costUsd: cost }
      }
      const backoff = policy.backoffBaseMs * 2 ** (attempt - 1)
      await sleep(Math.round(backoff * (1 - random() / 2)), signal)
    }
  }
}
