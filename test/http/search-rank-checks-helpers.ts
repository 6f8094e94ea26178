/**
 * Shared by the rank-check tests: search settings pointed at the stand-ins (quick polls, short timeouts and
 * backoff), the check as the API shows it, and the rank rows as the log holds them (so a test can count
 * every row ever recorded, not only the rows a read model keeps).
 */
import { DEFAULT_SEARCH_PROVIDER_SETTINGS, type SearchProviderSettings } from '../../processors/search/settings.js'
import type { DataForSeoSerpStandIn } from '../support/stand-ins/dataforseo-serp.js'
import type { SerpApiStandIn } from '../support/stand-ins/serpapi.js'
import type { TestSystem } from '../support/system.js'

export interface RankCheck {
  id: number
  client_id: number
  date: string
  trigger: 'manual' | 'cadence'
  status: 'queued' | 'running' | 'completed' | 'failed'
  provider: string | null
  tasks_total: number | null
  tasks_done: number
  tasks_failed: number
  provider_calls: number
  retries: number
  attempt: number
  error: { code: string; message: string } | null
  failed_tasks: { keyword_id: number; location_id: number | null; device: string; error_code: string; message: string; tries: number }[]
}

/** Providers at the stand-ins; polls every 50 ms, calls cut off after 2 s, tried 3 times 5 ms apart. */
export function searchSettings(
  providers: { dataforseo?: DataForSeoSerpStandIn; serpapi?: SerpApiStandIn },
  overrides: Partial<SearchProviderSettings> = {},
): SearchProviderSettings {
  const d = providers.dataforseo
  const s = providers.serpapi
  return {
    ...DEFAULT_SEARCH_PROVIDER_SETTINGS,
    dataforseo: d ? { login: d.login, password: d.password, baseUrl: d.baseUrl } : null,
    serpapi: s ? { apiKey: s.apiKey, baseUrl: s.baseUrl } : null,
    timeoutMs: 2_000,
    maxAttempts: 3,
    backoffBaseMs: 5,
    requestsPerSecond: 1_000,
    rankConcurrency: 4,
    pollMs: 50,
    ...overrides,
  }
}

export interface LoggedRankRow {
  keyword_id: number
  location_id: number | null
  device: string
  date: string
  position: number | null
  check_id: number | null
}

/** Every rank row of the client recorded in the log (KeywordRanksRecorded), in log order. */
export async function rankRowsOf(ts: TestSystem, clientId: number): Promise<LoggedRankRow[]> {
  const { rows } = await ts.database.pool.query<{ data: any }>(
    "select data from es_events where type = 'KeywordRanksRecorded' and stream_name like $1 order by global_position",
    [`keyword_ranks-${clientId}-%`],
  )
  return rows.flatMap(({ data }) =>
    (data.rows as any[]).map((r) => ({
      keyword_id: r.keyword_id,
      location_id: r.location_id,
      device: r.device,
      date: r.date,
      position: r.position,
      check_id: data.check_id,
    })),
  )
}

/** The keys of rows, to compare sets: keyword|location|device|date. */
export const keysOf = (rows: readonly LoggedRankRow[]) => rows.map((r) => `${r.keyword_id}|${r.location_id ?? 0}|${r.device}|${r.date}`)
