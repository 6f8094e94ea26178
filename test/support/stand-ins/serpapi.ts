/**
 * A local stand-in for SerpApi's Google Search API (GET /search.json?engine=google) and its Google AI Overview
 * API (engine=google_ai_overview&page_token=…) on 127.0.0.1, speaking the documented format
 * (serpapi.com/search-api, /google-ai-overview-api, /api-status-and-error-codes): search_metadata (status
 * Success), search_parameters, search_information, organic_results[].position/link, local_results.places,
 * answer_box, related_questions and ai_overview with references (or a page_token to fetch them with).
 * Errors are {"error": "…"} with the documented statuses: 401 for a bad key, 429 for the hourly limit or a
 * plan out of searches, 5xx; a search without results is HTTP 200 with an error.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostOfUrl, titleOf, type ReceivedSearch, type SerpFixture, type StandInBehaviour } from './serp-fixture.js'

export interface SerpApiStandIn {
  readonly baseUrl: string
  readonly apiKey: string
  /** Every engine=google search received, answered or not, in order. */
  readonly searches: ReceivedSearch[]
  /** Every request's query parameters (both engines), in order. */
  readonly queries: URLSearchParams[]
  script(...behaviours: StandInBehaviour[]): void
  otherwise(behaviour: StandInBehaviour | ((search: ReceivedSearch) => StandInBehaviour)): void
  pages(page: (search: ReceivedSearch) => SerpFixture): void
  close(): Promise<void>
}

const ERRORS: Record<number, string> = {
  401: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key',
  402: 'Payment required.',
  429: 'Your account has run out of searches.',
  500: 'Something went wrong on our end. Please contact support@serpapi.com.',
  502: 'Bad gateway.',
  503: 'Service temporarily unavailable.',
}

const searchId = () => randomBytes(12).toString('hex')

function metadata(id: string, url: string) {
  return {
    id,
    status: 'Success',
    json_endpoint: `https://serpapi.com/searches/${id.slice(0, 16)}/${id}.json`,
    created_at: '2026-11-27 10:15:00 UTC',
    processed_at: '2026-11-27 10:15:00 UTC',
    google_url: url,
    raw_html_file: `https://serpapi.com/searches/${id.slice(0, 16)}/${id}.html`,
    total_time_taken: 1.42,
  }
}

const references = (urls: readonly string[]) =>
  urls.map((link, index) => ({
    title: titleOf(link),
    link,
    snippet: `What ${titleOf(link)} says.`,
    source: hostOfUrl(link).replace(/^www\./, ''),
    index,
  }))

export async function startSerpApiStandIn(t: { teardown(fn: () => unknown): void }): Promise<SerpApiStandIn> {
  const apiKey = randomBytes(16).toString('hex')
  const searches: ReceivedSearch[] = []
  const queries: URLSearchParams[] = []
  const scripted: StandInBehaviour[] = []
  let fallback: StandInBehaviour | ((search: ReceivedSearch) => StandInBehaviour) = { kind: 'ok' }
  let pageOf: (search: ReceivedSearch) => SerpFixture = (search) => ({
    organic: Array.from({ length: 10 }, (_, i) => `https://www.competitor-${i + 1}.example/${search.keyword.replace(/\s+/g, '-')}`),
  })
  /** page_token → the references it unlocks (a deferred AI Overview). */
  const tokens = new Map<string, readonly string[]>()
  const hanging = new Set<http.ServerResponse>()

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(body))
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method !== 'GET' || url.pathname !== '/search.json') return send(res, 404, { error: 'Not found.' })
    const params = url.searchParams
    queries.push(params)
    if (params.get('api_key') !== apiKey) return send(res, 401, { error: ERRORS[401] })
    const engine = params.get('engine')
    if (engine === 'google_ai_overview') {
      const refs = tokens.get(params.get('page_token') ?? '')
      if (!refs) return send(res, 400, { error: 'Invalid page_token.' })
      const id = searchId()
      return send(res, 200, {
        search_metadata: metadata(id, 'https://www.google.com/async/folsrch'),
        search_parameters: { engine: 'google_ai_overview', page_token: params.get('page_token') },
        ai_overview: {
          text_blocks: [{ type: 'paragraph', snippet: 'An overview of the question.', reference_indexes: refs.map((_, i) => i) }],
          references: references(refs),
        },
      })
    }
    if (engine !== 'google') return send(res, 400, { error: `Unsupported engine: ${engine}` })
    const search: ReceivedSearch = {
      keyword: params.get('q') ?? '',
      location: params.get('location'),
      device: params.get('device') ?? 'desktop',
    }
    searches.push(search)
    const behaviour = scripted.shift() ?? (typeof fallback === 'function' ? fallback(search) : fallback)
    switch (behaviour.kind) {
      case 'hang':
        hanging.add(res)
        res.on('close', () => hanging.delete(res))
        return
      case 'http': {
        const headers: Record<string, string> =
          behaviour.retryAfterSeconds === undefined ? {} : { 'retry-after': String(behaviour.retryAfterSeconds) }
        return send(res, behaviour.status, { error: behaviour.message ?? ERRORS[behaviour.status] }, headers)
      }
      case 'status':
        // DataForSEO's in-body codes have no SerpApi counterpart but a search without results.
        return send(res, 200, { search_metadata: metadata(searchId(), ''), error: "Google hasn't returned any results for this query." })
      case 'ok': {
        if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs))
        const page = pageOf(search)
        const id = searchId()
        const googleUrl = `https://www.google.com/search?q=${encodeURIComponent(search.keyword)}&hl=en&gl=${params.get('gl') ?? 'us'}&num=100`
        const body: Record<string, unknown> = {
          search_metadata: metadata(id, googleUrl),
          search_parameters: {
            engine: 'google',
            q: search.keyword,
            ...(search.location ? { location_requested: search.location, location_used: search.location.replace(/, /g, ',') } : {}),
            google_domain: params.get('google_domain') ?? 'google.com',
            hl: params.get('hl') ?? 'en',
            gl: params.get('gl') ?? 'us',
            num: params.get('num') ?? '10',
            device: search.device,
          },
          search_information: {
            query_displayed: search.keyword,
            total_results: 1_240_000,
            time_taken_displayed: 0.41,
            organic_results_state: 'Results for exact spelling',
          },
        }
        if (page.aiOverview) {
          if (page.aiOverview.deferred) {
            const token = randomBytes(24).toString('base64url')
            tokens.set(token, page.aiOverview.references)
            body.ai_overview = {
              page_token: token,
              serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${token}`,
            }
          } else {
            body.ai_overview = {
              text_blocks: [
                {
                  type: 'paragraph',
                  snippet: 'An overview of the question.',
                  reference_indexes: page.aiOverview.references.map((_, i) => i),
                },
              ],
              references: references(page.aiOverview.references),
            }
          }
        }
        if (page.featuredSnippet) {
          body.answer_box = {
            type: 'organic_result',
            title: titleOf(page.featuredSnippet),
            link: page.featuredSnippet,
            displayed_link: page.featuredSnippet,
            snippet: 'A paragraph quoted from the page.',
          }
        }
        if (page.localPack) {
          body.local_results = {
            places: page.localPack.map((place, i) => ({
              position: i + 1,
              title: place.title,
              place_id: String(9_000_000_000 + i),
              rating: 4.8,
              reviews: 120,
              type: 'Plumber',
              address: 'Austin, TX',
              ...(place.url ? { links: { website: place.url, directions: 'https://www.google.com/maps/dir//' } } : {}),
            })),
            more_locations_link: 'https://www.google.com/search?tbm=lcl',
          }
        }
        if (page.peopleAlsoAsk && page.peopleAlsoAsk.length > 0) {
          body.related_questions = page.peopleAlsoAsk.map((question) => ({
            question,
            snippet: 'An answer from a page.',
            title: 'A page that answers it',
            link: 'https://answers.example/q',
            displayed_link: 'https://answers.example › q',
          }))
        }
        body.organic_results = page.organic.map((link, i) => ({
          position: i + 1,
          title: titleOf(link),
          link,
          redirect_link: `https://www.google.com/url?q=${encodeURIComponent(link)}`,
          displayed_link: `${new URL(link).origin} › ${new URL(link).pathname.split('/').filter(Boolean).join(' › ')}`,
          favicon: `https://serpapi.com/searches/${id}/images/favicon-${i}.png`,
          snippet: `About ${titleOf(link)}.`,
          source: hostOfUrl(link).replace(/^www\./, ''),
        }))
        return send(res, 200, body)
      }
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t.teardown(close)
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey,
    searches,
    queries,
    script: (...behaviours) => {
      scripted.push(...behaviours)
    },
    otherwise: (behaviour) => {
      fallback = behaviour
    },
    pages: (page) => {
      pageOf = page
    },
    close,
  }
}
