import type { RankCheckErrorCode, RankProviderName } from '../../../../domain/search/rank-checks/events.js'
import type { ClientLocation } from '../../../../domain/search/rank-checks/locations.js'
import type { SerpPage } from '../../../../domain/search/rank-checks/serp.js'
import type { RankDevice } from '../../../../domain/search/ranks/rank-row.js'

/** One search a rank check makes: a keyword, from a place (null: nationally), on a device. */
export interface SerpQuery {
  readonly keyword: string
  readonly location: ClientLocation | null
  readonly device: RankDevice
}

/** A results page and the provider calls it took (SerpApi fetches a deferred AI Overview with a second one). */
export interface SerpAnswer {
  readonly page: SerpPage
  readonly calls: number
}

/**
 * The one port rank checks search Google through: DataForSEO's SERP API or SerpApi, whichever is configured
 * (processors/search/rank-checks/providers/index.ts). An adapter makes one attempt, bounded by its timeout and
 * paced by the provider's rate limit; retrying is the caller's (call-with-retries.ts).
 */
export interface RankProvider {
  readonly name: RankProviderName
  /** Throws RankProviderError, never anything else. */
  search(query: SerpQuery, signal: AbortSignal): Promise<SerpAnswer>
}

/** What kind of failure, as the check records it. */
export type RankProviderFailure = Extract<
  RankCheckErrorCode,
  'rank_provider_unauthorized' | 'rank_provider_payment_required' | 'rank_provider_unavailable' | 'rank_provider_rejected'
>

/**
 * A provider failure: its code, the provider's own words, the HTTP status when there was one, and the wait it
 * asked for (a 429's Retry-After). Only `rank_provider_unavailable` is worth another try: a refused key or an
 * empty balance will not mend by asking again, and a rejected search is rejected again.
 */
export class RankProviderError extends Error {
  override readonly name = 'RankProviderError'
  readonly code: RankProviderFailure
  readonly status: number | undefined
  readonly retryAfterMs: number | undefined
  /** Whether the whole check should stop: the same refusal awaits every other search of it. */
  readonly fatal: boolean

  constructor(
    code: RankProviderFailure,
    message: string,
    options: { status?: number | undefined; retryAfterMs?: number | undefined } = {},
  ) {
    super(message)
    this.code = code
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
    this.fatal = code === 'rank_provider_unauthorized' || code === 'rank_provider_payment_required'
  }

  get retryable(): boolean {
    return this.code === 'rank_provider_unavailable'
  }
}

/** The failure an HTTP status means (for a response that carries no better word of its own). */
export function failureOfStatus(status: number): RankProviderFailure {
  if (status === 401 || status === 403) return 'rank_provider_unauthorized'
  if (status === 402) return 'rank_provider_payment_required'
  if (status === 408 || status === 429 || status >= 500) return 'rank_provider_unavailable'
  return 'rank_provider_rejected'
}

/** A thrown fetch or SDK error that is not an HTTP answer: a timeout, a refused connection, a reset. */
export function networkFailure(error: unknown, signal: AbortSignal): RankProviderError {
  if (error instanceof RankProviderError) return error
  const reason = signal.aborted ? 'the call was cut off (timeout or shutdown)' : error instanceof Error ? error.message : String(error)
  return new RankProviderError('rank_provider_unavailable', `network: ${reason}`.slice(0, 500))
}
