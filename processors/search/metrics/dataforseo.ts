// dataforseo-client is ~2,400 ES modules: imported where a call is made, not with the app.
import type { DataforseoLabsGoogleBulkKeywordDifficultyLiveResultInfo } from 'dataforseo-client'
import type { ProviderFailure } from '../../../domain/search/metrics/events.js'
import { classifyProviderFailure } from '../../../domain/search/metrics/failures.js'
import type { DifficultyResult, VolumeResult } from '../../../domain/search/metrics/results.js'
import { CallLimiter } from './limiter.js'
import { type KeywordMetricsProvider, type MetricsRequest, type ProviderAnswer, ProviderCallError } from './provider.js'

/** DataForSEO's success status (envelope and task). */
const OK = 20000
/** "No Search Results.": a task that ran and found nothing (Labs knows none of the phrases). */
const NO_RESULTS = 40102
/** DataForSEO allows 12 calls a minute per account to its Google Ads live endpoints. */
const GOOGLE_ADS_LIVE_WINDOW = { calls: 12, ms: 60_000 }

export interface DataForSeoSettings {
  readonly login: string
  readonly password: string
  /** DATAFORSEO_BASE_URL (https://api.dataforseo.com); tests point it at a stand-in. */
  readonly baseUrl: string
  /** SEARCH_PROVIDER_TIMEOUT_MS: one call's deadline. */
  readonly timeoutMs: number
  /** SEARCH_PROVIDER_REQUESTS_PER_SECOND: calls per second to DataForSEO from this process. */
  readonly requestsPerSecond: number
}

/** The envelope every DataForSEO answer has (dataforseo-client's response classes carry these fields). */
interface Envelope<T> {
  status_code?: number | undefined
  status_message?: string | undefined
  cost?: number | undefined
  tasks?:
    | { status_code?: number | undefined; status_message?: string | undefined; cost?: number | undefined; result?: T[] | undefined }[]
    | undefined
}

function failure(httpStatus: number | null, providerStatus: number | null, message: string, cost: number | null = null): ProviderCallError {
  const { code, retryable } = classifyProviderFailure({ httpStatus, providerStatus })
  const recorded: ProviderFailure = { code, message: message.slice(0, 1000), http_status: httpStatus, provider_status: providerStatus }
  return new ProviderCallError(recorded, retryable, cost)
}

/** dataforseo-client throws its ApiException (status and body) for a non-200 answer; fetch throws for no answer at all. */
function callFailure(error: unknown): ProviderCallError {
  if (error instanceof ProviderCallError) return error
  const e = error as { status?: unknown; response?: unknown; name?: unknown; message?: unknown }
  if (typeof e?.status === 'number' && typeof e.response === 'string') {
    let body: Envelope<unknown> | null = null
    try {
      body = JSON.parse(e.response) as Envelope<unknown>
    } catch {
      body = null
    }
    const providerStatus = typeof body?.status_code === 'number' ? body.status_code : null
    return failure(e.status, providerStatus, body?.status_message ?? `HTTP ${e.status}`)
  }
  const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError'
  return failure(null, null, timedOut ? 'No answer before the timeout' : `No answer: ${String(e?.message ?? error)}`)
}

/** The results of a 200 answer, or the failure its envelope or task status says. */
function resultsOf<T>(answer: Envelope<T> | null): { results: T[]; cost: number | null } {
  if (!answer) throw failure(200, null, 'An empty answer')
  const cost = typeof answer.cost === 'number' ? answer.cost : null
  if (answer.status_code !== OK) throw failure(200, answer.status_code ?? null, answer.status_message ?? 'Not OK', cost)
  const task = answer.tasks?.[0]
  if (!task) throw failure(200, null, 'An answer without a task', cost)
  if (task.status_code === NO_RESULTS) return { results: [], cost }
  if (task.status_code !== OK) throw failure(200, task.status_code ?? null, task.status_message ?? 'Task not OK', cost)
  return { results: task.result ?? [], cost }
}

/**
 * DataForSEO through its official client: Keywords Data API's Google Ads search volume (live) and DataForSEO
 * Labs' bulk keyword difficulty (live), one task per call, HTTP basic auth, each call bounded by the
 * timeout and spaced by the limiters. A failure becomes a ProviderCallError with its code (failures.ts).
 */
export function dataForSeoProvider(settings: DataForSeoSettings): KeywordMetricsProvider {
  const token = Buffer.from(`${settings.login}:${settings.password}`).toString('base64')
  // Each call's fetch ends at the timeout or when the processor stops, whichever is first.
  const http = (signal: AbortSignal) => ({
    fetch: (url: RequestInfo, init?: RequestInit) =>
      fetch(url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string> | undefined), Authorization: `Basic ${token}` },
        signal: AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]),
      }),
  })
  const baseUrl = settings.baseUrl.replace(/\/+$/, '')
  const minIntervalMs = 1000 / Math.max(settings.requestsPerSecond, 0.001)
  const googleAds = new CallLimiter({ minIntervalMs, window: GOOGLE_ADS_LIVE_WINDOW })
  const labsLimiter = new CallLimiter({ minIntervalMs })

  async function call<T>(limiter: CallLimiter, signal: AbortSignal, send: () => Promise<Envelope<T> | null>): Promise<ProviderAnswer<T>> {
    await limiter.take(signal)
    if (signal.aborted) throw failure(null, null, 'Stopped before the call')
    let answer: Envelope<T> | null
    try {
      answer = await send()
    } catch (error) {
      throw callFailure(error)
    }
    const { results, cost } = resultsOf(answer)
    return { results, costUsd: cost }
  }

  return {
    async searchVolume(request: MetricsRequest, signal: AbortSignal): Promise<ProviderAnswer<VolumeResult>> {
      const { KeywordsDataApi, KeywordsDataGoogleAdsSearchVolumeLiveRequestInfo } = await import('dataforseo-client')
      const task = new KeywordsDataGoogleAdsSearchVolumeLiveRequestInfo({
        keywords: [...request.keywords],
        location_code: request.location.location_code,
        language_code: request.location.language_code,
      })
      return call(googleAds, signal, () => new KeywordsDataApi(baseUrl, http(signal)).googleAdsSearchVolumeLive([task]))
    },
    async difficulty(request: MetricsRequest, signal: AbortSignal): Promise<ProviderAnswer<DifficultyResult>> {
      const { DataforseoLabsApi, DataforseoLabsGoogleBulkKeywordDifficultyLiveRequestInfo } = await import('dataforseo-client')
      const task = new DataforseoLabsGoogleBulkKeywordDifficultyLiveRequestInfo({
        keywords: [...request.keywords],
        location_code: request.location.location_code,
        language_code: request.location.language_code,
      })
      const answer = await call<DataforseoLabsGoogleBulkKeywordDifficultyLiveResultInfo>(labsLimiter, signal, () =>
        new DataforseoLabsApi(baseUrl, http(signal)).googleBulkKeywordDifficultyLive([task]),
      )
      // Labs answers one result holding the items (phrases it does not know are left out).
      return { results: answer.results.flatMap((r) => r.items ?? []), costUsd: answer.costUsd }
    },
  }
}
