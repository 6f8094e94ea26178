import { countryCode, serpApiLocation } from '../../../../domain/search/rank-checks/locations.js'
import type { SerpPage } from '../../../../domain/search/rank-checks/serp.js'
import { retryAfterMs } from '../../../aeo/engines/adapter.js'
import type { RateLimiter } from '../rate-limiter.js'
import { RankProviderError, failureOfStatus, networkFailure, type RankProvider, type SerpQuery } from './port.js'

export interface SerpApiSettings {
  readonly apiKey: string
  readonly baseUrl: string
}

type Json = Record<string, unknown>

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]).filter((v) => typeof v === 'object' && v !== null) : [])

/** The URLs an ai_overview block cites (its `references`, each with a `link`). */
function referenceLinks(overview: Json): string[] {
  const urls: string[] = []
  for (const ref of list(overview.references)) {
    const url = text(ref.link)
    if (url && !urls.includes(url)) urls.push(url)
  }
  return urls
}

/**
 * A Google Search API response as a SerpPage (https://serpapi.com/search-api): `organic_results[].position`
 * is the organic rank; `local_results` the map pack (`places`, or a list); an `answer_box` with a `link` is
 * the featured snippet; `related_questions` is People Also Ask; `ai_overview` the AI Overview, whose
 * `references` may only come with the follow-up request (`references` given separately, then).
 */
export function serpPageOfSearch(body: Json, deferredReferences?: readonly string[]): SerpPage {
  const organic = list(body.organic_results).flatMap((r) => {
    const url = text(r.link)
    return url && typeof r.position === 'number' ? [{ position: r.position, url, domain: null }] : []
  })
  const local = body.local_results
  const places = Array.isArray(local) ? list(local) : list((local as Json | undefined)?.places)
  const localPack =
    local === undefined || local === null
      ? null
      : places.map((p) => {
          const links = (p.links ?? {}) as Json
          const website = text(links.website) ?? text(p.website)
          return { title: text(p.title) ?? '', url: website, domain: null }
        })
  const answer = body.answer_box as Json | undefined
  const snippetUrl = answer ? text(answer.link) : null
  const overview = body.ai_overview as Json | undefined
  const aiOverview =
    overview && typeof overview === 'object'
      ? { references: deferredReferences ? [...deferredReferences] : referenceLinks(overview) }
      : null
  return {
    organic,
    localPack,
    featuredSnippet: snippetUrl ? { url: snippetUrl, domain: null } : null,
    peopleAlsoAsk: list(body.related_questions).length > 0,
    aiOverview,
  }
}

/** "Google hasn't returned any results for this query.": a page without results, not a failure. */
const NO_RESULTS = /hasn't returned any results/i
/** SerpApi answers 429 both for its hourly throughput limit and for a plan out of searches; the second needs payment. */
const OUT_OF_SEARCHES = /run out of searches|out of searches|plan.*(limit|exceeded)/i

/**
 * SerpApi's Google Search API over plain HTTP (its official `serpapi` package cannot be pointed at another
 * host): GET /search.json with engine=google, the keyword, the location by its canonical name, Google's
 * country, the device and 100 results. An AI Overview that Google loads separately comes back as a
 * `page_token`, fetched with a second call (engine=google_ai_overview) within the same attempt.
 */
export function serpApiProvider(settings: SerpApiSettings, options: { timeoutMs: number; limiter: RateLimiter }): RankProvider {
  const base = settings.baseUrl.replace(/\/+$/, '')

  async function get(params: Record<string, string>, signal: AbortSignal): Promise<Json> {
    await options.limiter.take(signal).catch((error: unknown) => {
      throw networkFailure(error, signal)
    })
    const callSignal = AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)])
    const url = `${base}/search.json?${new URLSearchParams({ ...params, api_key: settings.apiKey }).toString()}`
    let response: Response
    let body: Json | null = null
    try {
      response = await fetch(url, { headers: { accept: 'application/json' }, signal: callSignal })
      const raw = await response.text()
      try {
        body = JSON.parse(raw) as Json
      } catch {
        body = null
      }
    } catch (error) {
      throw networkFailure(error, callSignal)
    }
    const error = text(body?.error)
    if (response.status !== 200) {
      let failure = failureOfStatus(response.status)
      if (response.status === 429 && error && OUT_OF_SEARCHES.test(error)) failure = 'rank_provider_payment_required'
      throw new RankProviderError(failure, `HTTP ${response.status}${error ? `: ${error}` : ''}`.slice(0, 500), {
        status: response.status,
        retryAfterMs: retryAfterMs(response.headers),
      })
    }
    if (body === null) throw new RankProviderError('rank_provider_unavailable', 'the response is not JSON')
    if (error && !NO_RESULTS.test(error)) throw new RankProviderError('rank_provider_rejected', error.slice(0, 500))
    return body
  }

  return {
    name: 'serpapi',
    async search(query: SerpQuery, signal: AbortSignal) {
      const location = serpApiLocation(query.location)
      const body = await get(
        {
          engine: 'google',
          q: query.keyword,
          ...(location ? { location } : {}),
          gl: countryCode(query.location),
          hl: 'en',
          google_domain: 'google.com',
          device: query.device,
          num: '100',
        },
        signal,
      )
      const overview = body.ai_overview as Json | undefined
      const token = overview ? text(overview.page_token) : null
      if (overview && token && !Array.isArray(overview.references)) {
        const deferred = await get({ engine: 'google_ai_overview', page_token: token }, signal)
        const refs = referenceLinks((deferred.ai_overview ?? {}) as Json)
        return { page: serpPageOfSearch(body, refs), calls: 2 }
      }
      return { page: serpPageOfSearch(body), calls: 1 }
    },
  }
}
