// dataforseo-client is ~2,400 ES modules: imported where a search is made, not with the app.
import type { SerpApi } from 'dataforseo-client'
import { dataForSeoLocationName } from '../../../../domain/search/rank-checks/locations.js'
import type { SerpPage } from '../../../../domain/search/rank-checks/serp.js'
import { retryAfterMs } from '../../../aeo/engines/adapter.js'
import type { RateLimiter } from '../rate-limiter.js'
import { RankProviderError, failureOfStatus, networkFailure, type RankProvider, type RankProviderFailure, type SerpQuery } from './port.js'

export interface DataForSeoSettings {
  readonly login: string
  readonly password: string
  readonly baseUrl: string
}

/** Results read per search: the client's position up to 100. */
const DEPTH = 100

/**
 * What a DataForSEO status code means. The API answers HTTP 200 for most failures and says what went wrong in
 * `status_code` (of the response, and of each task): 20000 is success, 40100 an unknown login, 40200 and
 * 40210 a balance that cannot pay, 40202 a rate limit, 40101 a search engine error, 5xxxx its own failures
 * (https://docs.dataforseo.com/v3/appendix/errors). 40102, "no search results", is not a failure.
 */
export function failureOfStatusCode(code: number): RankProviderFailure | null {
  if (code === 20000 || code === 20100 || code === 40102) return null
  if (code === 40100) return 'rank_provider_unauthorized'
  if (code === 40202) return 'rank_provider_unavailable'
  if (code >= 40200 && code < 40300) return 'rank_provider_payment_required'
  if (code === 40101 || code >= 50000) return 'rank_provider_unavailable'
  return 'rank_provider_rejected'
}

type Item = Record<string, unknown> & { type?: unknown }

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)

function referencesOf(item: Item): string[] {
  const urls: string[] = []
  const collect = (list: unknown) => {
    if (!Array.isArray(list)) return
    for (const ref of list as Item[]) {
      const url = text(ref?.url) ?? (text(ref?.domain) ? `https://${ref.domain as string}/` : null)
      if (url && !urls.includes(url)) urls.push(url)
    }
  }
  collect(item.references)
  // The overview's own elements carry references too (some responses list them only there).
  if (Array.isArray(item.items)) for (const element of item.items as Item[]) collect(element?.references)
  return urls
}

/** A live/advanced result's items as a SerpPage: organic positions are `rank_group` (the organic-only rank). */
export function serpPageOfItems(items: readonly Item[]): SerpPage {
  const organic: { position: number; url: string; domain: string | null }[] = []
  const localPack: { title: string; url: string | null; domain: string | null }[] = []
  let featuredSnippet: { url: string | null; domain: string | null } | null = null
  let peopleAlsoAsk = false
  // The references of every ai_overview element (null: none shown).
  const aiReferences: string[][] = []
  for (const item of items) {
    switch (item.type) {
      case 'organic': {
        const url = text(item.url)
        if (url && typeof item.rank_group === 'number') organic.push({ position: item.rank_group, url, domain: text(item.domain) })
        break
      }
      case 'local_pack':
        localPack.push({ title: text(item.title) ?? '', url: text(item.url), domain: text(item.domain) })
        break
      case 'featured_snippet':
        featuredSnippet ??= { url: text(item.url), domain: text(item.domain) }
        break
      case 'people_also_ask':
        peopleAlsoAsk = true
        break
      case 'ai_overview':
        aiReferences.push(referencesOf(item))
        break
    }
  }
  const aiOverview = aiReferences.length === 0 ? null : { references: [...new Set(aiReferences.flat())] }
  return { organic, localPack: localPack.length > 0 ? localPack : null, featuredSnippet, peopleAlsoAsk, aiOverview }
}

function isApiException(error: unknown): error is { status: number; response: string; headers: Record<string, string> } {
  return typeof error === 'object' && error !== null && (error as { isApiException?: unknown }).isApiException === true
}

/** A non-200 answer: its status, and the body's own status_code and message when it has them. */
function httpFailure(error: { status: number; response: string; headers: Record<string, string> }): RankProviderError {
  let code: number | undefined
  let message = `HTTP ${error.status}`
  try {
    const body = JSON.parse(error.response) as { status_code?: unknown; status_message?: unknown }
    if (typeof body.status_code === 'number') code = body.status_code
    if (typeof body.status_message === 'string') message = `HTTP ${error.status}: ${body.status_message} (${body.status_code})`
  } catch {
    // Not JSON (a proxy's page): the HTTP status says enough.
  }
  const failure = (code !== undefined ? failureOfStatusCode(code) : null) ?? failureOfStatus(error.status)
  const headers = { get: (name: string) => error.headers?.[name.toLowerCase()] ?? null }
  return new RankProviderError(failure, message.slice(0, 500), { status: error.status, retryAfterMs: retryAfterMs(headers) })
}

/**
 * DataForSEO's SERP API, Google organic live/advanced, through its official SDK (dataforseo-client) pointed at
 * the configured base URL, with HTTP basic auth. One task per call: the keyword, the location by name, the
 * device, the top 100 results, and the AI Overview loaded (it is fetched asynchronously by Google otherwise).
 */
export function dataForSeoProvider(settings: DataForSeoSettings, options: { timeoutMs: number; limiter: RateLimiter }): RankProvider {
  const authorization = `Basic ${Buffer.from(`${settings.login}:${settings.password}`).toString('base64')}`
  const baseUrl = settings.baseUrl.replace(/\/+$/, '')
  return {
    name: 'dataforseo',
    async search(query: SerpQuery, signal: AbortSignal) {
      // Imported before the limiter and the call's timeout: loading the SDK is no part of the call's time.
      const { SerpApi, SerpGoogleOrganicLiveAdvancedRequestInfo } = await import('dataforseo-client')
      await options.limiter.take(signal).catch((error: unknown) => {
        throw networkFailure(error, signal)
      })
      const callSignal = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)])
      const api = new SerpApi(baseUrl, {
        fetch: (url: RequestInfo, init?: RequestInit) =>
          fetch(url, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), Authorization: authorization },
            signal: callSignal,
          }),
      })
      const task = new SerpGoogleOrganicLiveAdvancedRequestInfo({
        keyword: query.keyword,
        location_name: dataForSeoLocationName(query.location),
        language_code: 'en',
        device: query.device,
        depth: DEPTH,
        load_async_ai_overview: true,
      })
      let response: Awaited<ReturnType<SerpApi['googleOrganicLiveAdvanced']>>
      try {
        response = await api.googleOrganicLiveAdvanced([task])
      } catch (error) {
        throw isApiException(error) ? httpFailure(error) : networkFailure(error, callSignal)
      }
      if (!response) throw new RankProviderError('rank_provider_unavailable', 'an empty response')
      const envelopeFailure = failureOfStatusCode(response.status_code ?? 0)
      if (envelopeFailure)
        throw new RankProviderError(envelopeFailure, `${response.status_message ?? 'error'} (${response.status_code})`.slice(0, 500))
      const first = response.tasks?.[0]
      if (!first) throw new RankProviderError('rank_provider_unavailable', 'the response has no task')
      const taskFailure = failureOfStatusCode(first.status_code ?? 0)
      if (taskFailure) throw new RankProviderError(taskFailure, `${first.status_message ?? 'error'} (${first.status_code})`.slice(0, 500))
      const items = (first.result?.[0]?.items ?? []) as unknown as Item[]
      return { page: serpPageOfItems(items), calls: 1 }
    },
  }
}
