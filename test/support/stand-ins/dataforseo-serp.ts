/**
 * A local stand-in for DataForSEO's SERP API (POST /v3/serp/google/organic/live/advanced) on 127.0.0.1,
 * speaking its wire format as documented (docs.dataforseo.com/v3/serp/google/organic/live/advanced,
 * /v3/appendix/errors): HTTP basic auth; the envelope {version, status_code 20000, status_message, time,
 * cost, tasks_count, tasks_error, tasks[]}; each task {id, status_code, status_message, cost, result_count,
 * path, data, result[]}; the result's items typed organic, local_pack, featured_snippet, people_also_ask and
 * ai_overview (with references), ranked by rank_group (within a type) and rank_absolute (on the page).
 * Errors as DataForSEO sends them: HTTP 401 with 40100, HTTP 402 with 40200, HTTP 500 with 50000, or HTTP
 * 200 with an error status_code on the task or the envelope (40101, 40210, …). Tests script it call by call.
 */
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostOfUrl, titleOf, type ReceivedSearch, type SerpFixture, type StandInBehaviour } from './serp-fixture.js'

export const LIVE_ADVANCED_PATH = '/v3/serp/google/organic/live/advanced'

export interface DataForSeoSerpStandIn {
  readonly baseUrl: string
  readonly login: string
  readonly password: string
  /** Every search received on the live/advanced endpoint, answered or not, in order. */
  readonly searches: ReceivedSearch[]
  /** The raw task objects posted, in order (what the SDK sent). */
  readonly tasks: Record<string, unknown>[]
  /** Behaviours for the next calls, in order; used up one per call. */
  script(...behaviours: StandInBehaviour[]): void
  /** What a call does once the script is used up (default: answer the page). */
  otherwise(behaviour: StandInBehaviour | ((search: ReceivedSearch) => StandInBehaviour)): void
  /** The page each search shows (default: ten organic results of other sites). */
  pages(page: (search: ReceivedSearch) => SerpFixture): void
  close(): Promise<void>
}

const VERSION = '0.1.20261127'

function taskId(): string {
  const hex = randomBytes(8).toString('hex')
  return `11271015-1535-0139-0000-${hex.slice(0, 12)}`
}

/** The items of a live/advanced result for a page, in the order Google shows them. */
export function itemsOf(page: SerpFixture): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = []
  let absolute = 0
  const xpath = (n: number) => `/html[1]/body[1]/div[3]/div[1]/div[${n}]`
  if (page.aiOverview) {
    absolute++
    const references = page.aiOverview.references.map((url) => ({
      type: 'ai_overview_reference',
      source: hostOfUrl(url).replace(/^www\./, ''),
      domain: hostOfUrl(url),
      url,
      title: titleOf(url),
      text: `What ${titleOf(url)} says about it.`,
    }))
    items.push({
      type: 'ai_overview',
      rank_group: 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: xpath(absolute),
      asynchronous_ai_overview: false,
      markdown: 'An overview of the question, with sources.',
      items: [
        {
          type: 'ai_overview_element',
          position: 'left',
          title: null,
          text: 'An overview.',
          markdown: 'An overview.',
          links: null,
          images: null,
          references,
        },
      ],
      references,
      rectangle: null,
    })
  }
  if (page.featuredSnippet) {
    absolute++
    items.push({
      type: 'featured_snippet',
      rank_group: 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: xpath(absolute),
      domain: hostOfUrl(page.featuredSnippet),
      title: titleOf(page.featuredSnippet),
      featured_title: 'The short answer',
      description: 'A paragraph quoted from the page.',
      timestamp: null,
      url: page.featuredSnippet,
      images: null,
      table: null,
      rectangle: null,
    })
  }
  for (const [i, place] of (page.localPack ?? []).entries()) {
    absolute++
    items.push({
      type: 'local_pack',
      rank_group: i + 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: xpath(absolute),
      title: place.title,
      description: '4.8 (120) · Plumber · Open 24 hours',
      domain: place.url ? hostOfUrl(place.url) : null,
      phone: '+1 512-555-0100',
      booking_url: null,
      url: place.url ?? null,
      is_paid: false,
      rating: { rating_type: 'Max5', value: 4.8, votes_count: 120, rating_max: 5 },
      cid: String(9_000_000_000 + i),
      rectangle: null,
    })
  }
  for (const [i, url] of page.organic.entries()) {
    absolute++
    items.push({
      type: 'organic',
      rank_group: i + 1,
      rank_absolute: absolute,
      position: 'left',
      xpath: xpath(absolute),
      domain: hostOfUrl(url),
      title: titleOf(url),
      url,
      cache_url: null,
      related_search_url: null,
      breadcrumb: `${new URL(url).origin} › ${new URL(url).pathname.split('/').filter(Boolean).join(' › ')}`,
      website_name: hostOfUrl(url).replace(/^www\./, ''),
      is_image: false,
      is_video: false,
      is_featured_snippet: page.featuredSnippet === url,
      is_malicious: false,
      is_web_story: false,
      description: `About ${titleOf(url)}.`,
      pre_snippet: null,
      extended_snippet: null,
      images: null,
      amp_version: false,
      rating: null,
      price: null,
      highlighted: [],
      links: null,
      faq: null,
      extended_people_also_search: null,
      about_this_result: null,
      related_result: null,
      timestamp: null,
      rectangle: null,
    })
    if (i === 2 && page.peopleAlsoAsk && page.peopleAlsoAsk.length > 0) {
      absolute++
      items.push({
        type: 'people_also_ask',
        rank_group: 1,
        rank_absolute: absolute,
        position: 'left',
        xpath: xpath(absolute),
        items: page.peopleAlsoAsk.map((question) => ({
          type: 'people_also_ask_element',
          title: question,
          seed_question: null,
          xpath: xpath(absolute),
          expanded_element: [],
        })),
        rectangle: null,
      })
    }
  }
  return items
}

const defaultPage = (search: ReceivedSearch): SerpFixture => ({
  organic: Array.from({ length: 10 }, (_, i) => `https://www.competitor-${i + 1}.example/${search.keyword.replace(/\s+/g, '-')}`),
})

/** The envelope DataForSEO answers errors in, with no tasks. */
function errorEnvelope(statusCode: number, message: string) {
  return {
    version: VERSION,
    status_code: statusCode,
    status_message: message,
    time: '0 sec.',
    cost: 0,
    tasks_count: 0,
    tasks_error: 0,
    tasks: null,
  }
}

const HTTP_ERRORS: Record<number, { code: number; message: string }> = {
  401: { code: 40100, message: 'You are not authorized to access this resource.' },
  402: { code: 40200, message: 'Payment Required.' },
  429: { code: 40202, message: 'Rate-limit per minute exceeded.' },
  500: { code: 50000, message: 'Internal Server Error.' },
  502: { code: 50000, message: 'Bad Gateway.' },
  503: { code: 50301, message: 'Service Temporarily Unavailable.' },
}

export async function startDataForSeoSerpStandIn(t: { teardown(fn: () => unknown): void }): Promise<DataForSeoSerpStandIn> {
  const login = 'agency@example.com'
  const password = randomBytes(8).toString('hex')
  const searches: ReceivedSearch[] = []
  const tasks: Record<string, unknown>[] = []
  const scripted: StandInBehaviour[] = []
  let fallback: StandInBehaviour | ((search: ReceivedSearch) => StandInBehaviour) = { kind: 'ok' }
  let pageOf: (search: ReceivedSearch) => SerpFixture = defaultPage
  const hanging = new Set<http.ServerResponse>()

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(JSON.stringify(body))
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== LIVE_ADVANCED_PATH) return send(res, 404, errorEnvelope(40400, 'Not Found.'))
      const expected = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`
      if (req.headers.authorization !== expected) return send(res, 401, errorEnvelope(40100, HTTP_ERRORS[401]!.message))
      let posted: Record<string, unknown>[]
      try {
        posted = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>[]
      } catch {
        return send(res, 400, errorEnvelope(40501, 'Invalid JSON.'))
      }
      const task = posted[0] ?? {}
      tasks.push(task)
      const search: ReceivedSearch = {
        keyword: String(task.keyword ?? ''),
        location:
          typeof task.location_name === 'string'
            ? task.location_name
            : task.location_code === undefined
              ? null
              : String(task.location_code),
        device: String(task.device ?? 'desktop'),
      }
      searches.push(search)
      const behaviour = scripted.shift() ?? (typeof fallback === 'function' ? fallback(search) : fallback)
      switch (behaviour.kind) {
        case 'hang':
          hanging.add(res)
          res.on('close', () => hanging.delete(res))
          return
        case 'http': {
          const known = HTTP_ERRORS[behaviour.status]!
          const headers: Record<string, string> =
            behaviour.retryAfterSeconds === undefined ? {} : { 'retry-after': String(behaviour.retryAfterSeconds) }
          return send(res, behaviour.status, errorEnvelope(known.code, behaviour.message ?? known.message), headers)
        }
        case 'status': {
          if (behaviour.envelope) return send(res, 200, errorEnvelope(behaviour.statusCode, behaviour.message))
          return send(res, 200, {
            version: VERSION,
            status_code: 20000,
            status_message: 'Ok.',
            time: '0.3021 sec.',
            cost: 0,
            tasks_count: 1,
            tasks_error: 1,
            tasks: [
              {
                id: taskId(),
                status_code: behaviour.statusCode,
                status_message: behaviour.message,
                time: '0.2213 sec.',
                cost: 0,
                result_count: 0,
                path: ['v3', 'serp', 'google', 'organic', 'live', 'advanced'],
                data: { api: 'serp', function: 'live', se: 'google', se_type: 'organic', ...task },
                result: null,
              },
            ],
          })
        }
        case 'ok': {
          if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs))
          const page = pageOf(search)
          const items = itemsOf(page)
          const q = encodeURIComponent(search.keyword).replace(/%20/g, '+')
          return send(res, 200, {
            version: VERSION,
            status_code: 20000,
            status_message: 'Ok.',
            time: '2.1503 sec.',
            cost: 0.0035,
            tasks_count: 1,
            tasks_error: 0,
            tasks: [
              {
                id: taskId(),
                status_code: 20000,
                status_message: 'Ok.',
                time: '2.0871 sec.',
                cost: 0.0035,
                result_count: 1,
                path: ['v3', 'serp', 'google', 'organic', 'live', 'advanced'],
                data: { api: 'serp', function: 'live', se: 'google', se_type: 'organic', ...task },
                result: [
                  {
                    keyword: search.keyword,
                    type: 'organic',
                    se_domain: 'google.com',
                    location_code: 1026201,
                    language_code: String(task.language_code ?? 'en'),
                    check_url: `https://www.google.com/search?q=${q}&num=100&hl=en&gl=US`,
                    datetime: '2026-11-27 10:15:00 +00:00',
                    spell: null,
                    refinement_chips: null,
                    item_types: [...new Set(items.map((i) => i.type as string))],
                    se_results_count: 1_240_000,
                    items_count: items.length,
                    items,
                  },
                ],
              },
            ],
          })
        }
      }
    })
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
    login,
    password,
    searches,
    tasks,
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
