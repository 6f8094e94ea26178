import { sleep } from '../../../commands/sleep.js'
import { backoffMs } from '../../../domain/search/rank-checks/backoff.js'
import type { SerpPage } from '../../../domain/search/rank-checks/serp.js'
import { RankProviderError, networkFailure, type RankProvider, type SerpQuery } from './providers/port.js'

export interface RetryPolicy {
  /** Tries per search before it is given up (1 = no retry). */
  readonly maxAttempts: number
  /** The first retry's wait; each next one doubles it (with jitter). */
  readonly backoffBaseMs: number
  /** [0, 1): the jitter's randomness (tests may fix it). */
  readonly random?: () => number
}

export type SearchOutcome =
  | { readonly ok: true; readonly page: SerpPage; readonly calls: number; readonly retries: number }
  | { readonly ok: false; readonly error: RankProviderError; readonly calls: number; readonly retries: number }

/**
 * One search, tried up to maxAttempts times while the failure is worth another try (5xx, timeouts, 429s,
 * network errors), waiting an exponential, jittered backoff between tries (or the provider's Retry-After).
 * A refused key, an empty balance or a rejected search is returned at once: asking again would only spend
 * calls. Never throws; a shutdown (`signal`) ends the waiting and returns the last failure.
 */
export async function searchWithRetries(
  provider: RankProvider,
  query: SerpQuery,
  policy: RetryPolicy,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const random = policy.random ?? Math.random
  let calls = 0
  let retries = 0
  for (let attempt = 1; ; attempt++) {
    let error: RankProviderError
    try {
      const answer = await provider.search(query, signal)
      return { ok: true, page: answer.page, calls: calls + answer.calls, retries }
    } catch (thrown) {
      error = thrown instanceof RankProviderError ? thrown : networkFailure(thrown, signal)
      calls++
    }
    if (!error.retryable || attempt >= policy.maxAttempts || signal.aborted) return { ok: false, error, calls, retries }
    await sleep(backoffMs(attempt, policy.backoffBaseMs, random(), error.retryAfterMs), signal)
    if (signal.aborted) return { ok: false, error, calls, retries }
    retries++
  }
}
