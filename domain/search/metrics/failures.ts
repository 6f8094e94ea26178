import type { MetricsFailureCode } from './events.js'

/**
 * What a provider failure means for the fetch, from DataForSEO's HTTP status and its own status code
 * (`status_code` of the envelope or of a task; 20000 is success). Credentials and billing are not retried:
 * the same call would fail the same way, and 401/402 cost nothing but a loop; rate limits, server errors
 * and timeouts are retried with backoff. A refused request (a 40xxx about the task) is not retried either.
 */
export interface FailureClass {
  readonly code: MetricsFailureCode
  readonly retryable: boolean
}

/** DataForSEO's rate-limit statuses among its 402xx codes: retried, not a billing problem. */
const RATE_LIMIT_STATUSES = new Set([40202, 40209])

export function classifyProviderFailure(failure: {
  readonly httpStatus: number | null
  readonly providerStatus: number | null
}): FailureClass {
  const { httpStatus, providerStatus } = failure
  if (httpStatus === 401 || (providerStatus !== null && providerStatus >= 40100 && providerStatus < 40200)) {
    return { code: 'metrics_provider_unauthorized', retryable: false }
  }
  if (httpStatus === 429 || (providerStatus !== null && RATE_LIMIT_STATUSES.has(providerStatus))) {
    return { code: 'metrics_provider_rate_limited', retryable: true }
  }
  if (httpStatus === 402 || (providerStatus !== null && providerStatus >= 40200 && providerStatus < 40300)) {
    return { code: 'metrics_provider_payment_required', retryable: false }
  }
  if (httpStatus === null && providerStatus === null) return { code: 'metrics_provider_unavailable', retryable: true }
  if ((httpStatus !== null && httpStatus >= 500) || (providerStatus !== null && providerStatus >= 50000)) {
    return { code: 'metrics_provider_unavailable', retryable: true }
  }
  return { code: 'metrics_provider_rejected', retryable: false }
}

/** Failures that stop the organization's fetches until the cooldown passes or someone asks for a refresh. */
export function isAccountFailure(code: MetricsFailureCode): boolean {
  return code === 'metrics_provider_unauthorized' || code === 'metrics_provider_payment_required'
}

/**
 * How long an organization whose last fetch failed on credentials or billing is left alone: an hour, so a
 * wrong DATAFORSEO_PASSWORD or an empty balance costs one refused call per organization per hour, and a fix
 * is picked up within the hour (or at once: refresh_keyword_metrics asks again).
 */
export const ACCOUNT_FAILURE_COOLDOWN_MS = 3_600_000

/**
 * How long a phrase whose last fetch failed otherwise (an outage that outlasted the retries, a refused task)
 * waits before the processor asks again: a quarter of an hour, so a provider that keeps failing a batch is
 * asked four times an hour, not every pass. A refresh request asks again at once.
 */
export const FAILED_FETCH_RETRY_MS = 15 * 60_000
