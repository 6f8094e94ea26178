/**
 * A local stand-in for the two DataForSEO endpoints keyword metrics use, on 127.0.0.1, speaking their wire
 * format as documented (docs.dataforseo.com/v3/keywords_data/google_ads/search_volume/live,
 * /v3/dataforseo_labs/google/bulk_keyword_difficulty/live, /v3/appendix/errors):
 *
 * - POST /v3/keywords_data/google_ads/search_volume/live: a POST array of one task {keywords (≤ 1000, each ≤ 80
 *   characters and ≤ 10 words), location_code, language_code, …}; the envelope {version, status_code 20000,
 *   status_message, time, cost, tasks_count, tasks_error, tasks[]}, each task {id, status_code, status_message,
 *   time, cost, result_count, path, data (the task as posted), result[]}, a result per keyword {keyword, spell,
 *   location_code, language_code, search_partners, competition (LOW/MEDIUM/HIGH), competition_index,
 *   search_volume, low_top_of_page_bid, high_top_of_page_bid, cpc, monthly_searches[{year, month,
 *   search_volume}]}; a keyword Google Ads has no data for comes back with nulls.
 * - POST /v3/dataforseo_labs/google/bulk_keyword_difficulty/live: one result {se_type, location_code,
 *   language_code, total_count, items_count, items[{se_type, keyword, keyword_difficulty}]}; a phrase Labs
 *   does not know is left out of items.
 *
 * Errors as DataForSEO sends them: HTTP 401 with 40100 (wrong login), HTTP 402 with 40200, HTTP 500 with
 * 50000, or HTTP 200 with an error status on the envelope (40202, a rate limit) or the task (50000, 40501 for
 * a refused field, 40000 for more than one task). The numbers are derived from the phrase (a stable hash),
 * so a test can predict them; `volumes` overrides them per phrase. Tests script failures call by call.
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const SEARCH_VOLUME_PATH = '/v3/keywords_data/google_ads/search_volume/live'
export const DIFFICULTY_PATH = '/v3/dataforseo_labs/google/bulk_keyword_difficulty/live'

export type Endpoint = 'search_volume' | 'difficulty'

/** What one call does instead of answering: an HTTP error, an error status in a 200 answer, or a slow answer. */
export type Failure =
  | 'http_500'
  | 'http_503'
  | 'payment_required'
  | 'unauthorized'
  | 'rate_limited'
  | 'task_internal_error'
  | 'access_denied'
  | { readonly slowMs: number }

export interface ReceivedCall {
  readonly endpoint: Endpoint
  /** The Authorization header matched the stand-in's login and password. */
  readonly authorized: boolean
  /** The POST array as sent. */
  readonly tasks: Record<string, unknown>[]
  readonly keywords: string[]
  readonly location_code: number | null
  readonly language_code: string | null
}

/** Numbers a test pins for a phrase (the rest derived). `null` search_volume: Google Ads has no data. */
export interface PinnedVolume {
  readonly search_volume?: number | null
  readonly cpc?: number | null
  readonly competition?: 'LOW' | 'MEDIUM' | 'HIGH' | null
  readonly competition_index?: number | null
  readonly keyword_difficulty?: number | null
}

export interface DataForSeoKeywordsStandIn {
  readonly baseUrl: string
  readonly login: string
  readonly password: string
  /** Every call received, answered or not, in order. */
  readonly calls: ReceivedCall[]
  /** Pinned numbers per phrase (lower-case). */
  readonly volumes: Map<string, PinnedVolume>
  /** Failures for the next calls of an endpoint, in order; used up one per call. */
  script(endpoint: Endpoint, ...failures: Failure[]): void
  /** A failure every call of the endpoint gets once its script is used up (null: answer). */
  down(endpoint: Endpoint, failure: Failure | null): void
  close(): Promise<void>
}

const VERSION = '0.1.20261127'
/** The month the stand-in's Google Ads data runs to (Google Ads has no data for the current month). */
const LATEST = { year: 2026, month: 10 }

function taskId(): string {
  return `11271015-1535-0139-0000-${randomBytes(6).toString('hex')}`
}

/** A stable number in [0, 1) from a phrase and a salt. */
function unit(text: string, salt: string): number {
  return createHash('sha256').update(`${salt}:${text}`).digest().readUInt32BE(0) / 2 ** 32
}

/** A phrase the stand-in's Google Ads knows nothing about (as it does not for many long-tail phrases). */
const hasNoData = (keyword: string) => keyword.includes('zzz')

function volumeResult(keyword: string, task: Record<string, unknown>, pinned: PinnedVolume | undefined): Record<string, unknown> {
  const base = {
    keyword,
    spell: null,
    location_code: task.location_code ?? null,
    language_code: task.language_code ?? null,
    search_partners: false,
  }
  if (pinned?.search_volume === null || (pinned === undefined && hasNoData(keyword))) {
    return {
      ...base,
      competition: null,
      competition_index: null,
      search_volume: null,
      low_top_of_page_bid: null,
      high_top_of_page_bid: null,
      cpc: null,
      monthly_searches: null,
    }
  }
  const volume =
    pinned?.search_volume ??
    [10, 20, 30, 50, 70, 90, 110, 140, 170, 210, 260, 320, 390, 480, 590, 720, 880, 1000][Math.floor(unit(keyword, 'volume') * 18)]!
  const index = pinned?.competition_index ?? Math.floor(unit(keyword, 'competition') * 101)
  const level = pinned?.competition ?? (index < 34 ? 'LOW' : index < 67 ? 'MEDIUM' : 'HIGH')
  const cpc = pinned?.cpc ?? Math.round(unit(keyword, 'cpc') * 3000) / 100
  const months = Array.from({ length: 12 }, (_, i) => {
    const total = LATEST.year * 12 + (LATEST.month - 1) - i
    const swing = 0.7 + unit(keyword, `month-${i}`) * 0.6
    return { year: Math.floor(total / 12), month: (total % 12) + 1, search_volume: Math.round(volume * swing) }
  })
  return {
    ...base,
    competition: level,
    competition_index: index,
    search_volume: volume,
    low_top_of_page_bid: Math.round(cpc * 45) / 100,
    high_top_of_page_bid: Math.round(cpc * 160) / 100,
    cpc,
    monthly_searches: months,
  }
}

function difficultyOf(keyword: string, pinned: PinnedVolume | undefined): number | null | undefined {
  if (pinned && 'keyword_difficulty' in pinned) return pinned.keyword_difficulty
  return hasNoData(keyword) ? undefined : Math.floor(unit(keyword, 'difficulty') * 101)
}

function envelope(status: number, message: string, cost: number, tasks: Record<string, unknown>[] | null): Record<string, unknown> {
  return {
    version: VERSION,
    status_code: status,
    status_message: message,
    time: '0.0712 sec.',
    cost,
    tasks_count: tasks?.length ?? 0,
    tasks_error: tasks?.filter((t) => t.status_code !== 20000).length ?? 0,
    tasks,
  }
}

function task(
  status: number,
  message: string,
  cost: number,
  path: string,
  data: Record<string, unknown>,
  result: unknown[] | null,
): Record<string, unknown> {
  return {
    id: taskId(),
    status_code: status,
    status_message: message,
    time: '0.0583 sec.',
    cost,
    result_count: result?.length ?? 0,
    path: path.split('/').filter(Boolean),
    data,
    result,
  }
}

/** Why DataForSEO would refuse the task's keywords (40501), or null. */
function keywordsProblem(keywords: unknown): string | null {
  if (!Array.isArray(keywords) || keywords.length === 0) return "Invalid Field: 'keywords'."
  if (keywords.length > 1000) return "Invalid Field: 'keywords'. The maximum number of keywords is 1000."
  for (const k of keywords) {
    if (typeof k !== 'string' || k.length > 80) return "Invalid Field: 'keywords'. The maximum number of characters for each keyword: 80."
    if (k.trim().split(/\s+/).length > 10) return "Invalid Field: 'keywords'. The maximum number of words for each keyword phrase: 10."
    if (/[!@%^()={};~`<>?\\|]/.test(k)) return "Invalid Field: 'keywords'. The keywords contain invalid characters."
  }
  return null
}

type Reply = { status: number; body: Record<string, unknown> }

function failureReply(failure: Exclude<Failure, { slowMs: number }>, path: string, data: Record<string, unknown>): Reply {
  switch (failure) {
    case 'unauthorized':
      return {
        status: 401,
        body: envelope(
          40100,
          'You are not authorized to access this resource. See your login details here: https://app.dataforseo.com/api-access',
          0,
          null,
        ),
      }
    case 'payment_required':
      return { status: 402, body: envelope(40200, 'Payment Required.', 0, null) }
    case 'http_500':
      return { status: 500, body: envelope(50000, 'Internal Error.', 0, null) }
    case 'http_503':
      return { status: 503, body: envelope(50301, 'Service Unavailable.', 0, null) }
    case 'rate_limited':
      return { status: 200, body: envelope(40202, 'Rate-limit per minute is exceeded. Please try again later.', 0, null) }
    case 'access_denied':
      return {
        status: 200,
        body: envelope(20000, 'Ok.', 0, [
          task(
            40204,
            'Access denied. Visit Plans and Subscriptions to activate your subscription and get access to this API.',
            0,
            path,
            data,
            null,
          ),
        ]),
      }
    case 'task_internal_error':
      return { status: 200, body: envelope(20000, 'Ok.', 0, [task(50000, 'Internal Error.', 0, path, data, null)]) }
  }
}

/** Starts the stand-in on 127.0.0.1 (a free port); closes with the test when given one, else by close(). */
export async function startDataForSeoKeywords(t?: { teardown(fn: () => unknown): void }): Promise<DataForSeoKeywordsStandIn> {
  const login = 'agency@example.com'
  const password = randomBytes(8).toString('hex')
  const expected = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`
  const calls: ReceivedCall[] = []
  const volumes = new Map<string, PinnedVolume>()
  const scripts: Record<Endpoint, Failure[]> = { search_volume: [], difficulty: [] }
  const downs: Record<Endpoint, Failure | null> = { search_volume: null, difficulty: null }

  function answer(endpoint: Endpoint, path: string, tasks: Record<string, unknown>[]): Reply {
    if (tasks.length !== 1) {
      return { status: 200, body: envelope(40000, 'You can set only one task at a time.', 0, null) }
    }
    const posted = tasks[0]!
    const data =
      endpoint === 'search_volume'
        ? { api: 'keywords_data', function: 'search_volume', se: 'google_ads', ...posted }
        : { api: 'dataforseo_labs', function: 'bulk_keyword_difficulty', se_type: 'google', ...posted }
    const problem = keywordsProblem(posted.keywords)
    if (problem) return { status: 200, body: envelope(20000, 'Ok.', 0, [task(40501, problem, 0, path, data, null)]) }
    const keywords = (posted.keywords as string[]).map((k) => k.toLowerCase())
    if (endpoint === 'search_volume') {
      const results = keywords.map((k) => volumeResult(k, posted, volumes.get(k)))
      return { status: 200, body: envelope(20000, 'Ok.', 0.075, [task(20000, 'Ok.', 0.075, path, data, results)]) }
    }
    const items = keywords.flatMap((k) => {
      const difficulty = difficultyOf(k, volumes.get(k))
      return difficulty === undefined ? [] : [{ se_type: 'google', keyword: k, keyword_difficulty: difficulty }]
    })
    const cost = Math.round((0.01 + 0.0001 * keywords.length) * 10_000) / 10_000
    const result = {
      se_type: 'google',
      location_code: posted.location_code ?? null,
      language_code: posted.language_code ?? null,
      total_count: items.length,
      items_count: items.length,
      items,
    }
    return { status: 200, body: envelope(20000, 'Ok.', cost, [task(20000, 'Ok.', cost, path, data, [result])]) }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void (async () => {
        const path = req.url ?? ''
        const endpoint: Endpoint | null = path === SEARCH_VOLUME_PATH ? 'search_volume' : path === DIFFICULTY_PATH ? 'difficulty' : null
        const send = (reply: Reply) => {
          res.writeHead(reply.status, { 'content-type': 'application/json' })
          res.end(JSON.stringify(reply.body))
        }
        if (req.method !== 'POST' || endpoint === null) {
          return send({ status: 404, body: envelope(40400, 'Not Found.', 0, null) })
        }
        let tasks: Record<string, unknown>[] = []
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          tasks = Array.isArray(parsed) ? (parsed as Record<string, unknown>[]) : []
        } catch {
          return send({ status: 200, body: envelope(40503, 'POST Data Is Invalid.', 0, null) })
        }
        const authorized = req.headers.authorization === expected
        const first = tasks[0] ?? {}
        calls.push({
          endpoint,
          authorized,
          tasks,
          keywords: Array.isArray(first.keywords) ? (first.keywords as string[]) : [],
          location_code: typeof first.location_code === 'number' ? first.location_code : null,
          language_code: typeof first.language_code === 'string' ? first.language_code : null,
        })
        if (!authorized) return send(failureReply('unauthorized', path, first))
        const failure = scripts[endpoint].shift() ?? downs[endpoint]
        if (failure !== null && typeof failure === 'object') {
          await new Promise((resolve) => setTimeout(resolve, failure.slowMs))
          if (!res.destroyed) send(answer(endpoint, path, tasks))
          return
        }
        if (failure !== null) return send(failureReply(failure, path, { ...first }))
        send(answer(endpoint, path, tasks))
      })()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t?.teardown(close)
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    login,
    password,
    calls,
    volumes,
    script: (endpoint, ...failures) => scripts[endpoint].push(...failures),
    down: (endpoint, failure) => {
      downs[endpoint] = failure
    },
    close,
  }
}
