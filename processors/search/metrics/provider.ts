import type { MetricsLocation, ProviderFailure } from '../../../domain/search/metrics/events.js'
import type { DifficultyResult, VolumeResult } from '../../../domain/search/metrics/results.js'

/**
 * The port the metrics processor fetches through: Google Ads search volumes for up to 1000 phrases in one
 * market, and their keyword difficulty. DataForSEO is the one adapter (dataforseo.ts); tests point it at a
 * local stand-in that speaks DataForSEO's wire format.
 */
export interface KeywordMetricsProvider {
  searchVolume(request: MetricsRequest, signal: AbortSignal): Promise<ProviderAnswer<VolumeResult>>
  difficulty(request: MetricsRequest, signal: AbortSignal): Promise<ProviderAnswer<DifficultyResult>>
}

export interface MetricsRequest {
  /** Normalized phrases (keywordKey), each one the provider accepts (provider-keyword.ts). */
  readonly keywords: readonly string[]
  readonly location: MetricsLocation
}

export interface ProviderAnswer<T> {
  readonly results: readonly T[]
  /** What the provider reported the call cost (USD); null when it reported nothing. */
  readonly costUsd: number | null
}

/** A call that got no usable answer: the coded failure (failures.ts) and whether trying again may help. */
export class ProviderCallError extends Error {
  readonly failure: ProviderFailure
  readonly retryable: boolean
  readonly costUsd: number | null

  constructor(failure: ProviderFailure, retryable: boolean, costUsd: number | null = null) {
    super(`${failure.code}: ${failure.message}`)
    this.name = 'ProviderCallError'
    this.failure = failure
    this.retryable = retryable
    this.costUsd = costUsd
  }
}
