/**
 * The search data providers and how hard the search processors may lean on them (ops/config.ts reads them
 * from the environment). A provider without credentials is off: rank checks use whichever rank provider is
 * configured (DataForSEO first, then SerpApi) and fail visibly on the client when none is.
 */
export interface SearchProviderSettings {
  /** DATAFORSEO_LOGIN, DATAFORSEO_PASSWORD, DATAFORSEO_BASE_URL: SERP API (ranks) and Keywords Data API (metrics). */
  readonly dataforseo: { readonly login: string; readonly password: string; readonly baseUrl: string } | null
  /** SERPAPI_KEY, SERPAPI_BASE_URL: Google organic results when DataForSEO is not configured. */
  readonly serpapi: { readonly apiKey: string; readonly baseUrl: string } | null
  /**
   * GSC_BASE_URL (the Search Console API's root URL) and GSC_TOKEN_URL (Google's OAuth token endpoint): both
   * Google's by default; tests point them at a local stand-in. Credentials are per client (sealed in the log).
   */
  readonly gsc: { readonly baseUrl: string; readonly tokenUrl: string }
  /** SEARCH_PROVIDER_TIMEOUT_MS: one provider call's deadline. */
  readonly timeoutMs: number
  /** SEARCH_PROVIDER_MAX_ATTEMPTS: tries per unit of work before it is recorded as failed (1 = no retry). */
  readonly maxAttempts: number
  /** SEARCH_PROVIDER_BACKOFF_BASE_MS: the first retry's delay; each next one doubles it (with jitter). */
  readonly backoffBaseMs: number
  /** SEARCH_PROVIDER_REQUESTS_PER_SECOND: calls per second per provider, across this process. */
  readonly requestsPerSecond: number
  /** RANK_CHECK_CONCURRENCY: provider calls a rank check has in flight at once. */
  readonly rankConcurrency: number
  /** KEYWORD_METRICS_MAX_AGE_DAYS: keyword metrics older than this are refreshed. */
  readonly metricsMaxAgeDays: number
  /** SEARCH_POLL_MS: how often the search processors look for due work (cadences, stale metrics). */
  readonly pollMs: number
}

export const DATAFORSEO_DEFAULT_BASE_URL = 'https://api.dataforseo.com'
export const SERPAPI_DEFAULT_BASE_URL = 'https://serpapi.com'
export const GSC_DEFAULT_BASE_URL = 'https://searchconsole.googleapis.com/'
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'

export const DEFAULT_SEARCH_PROVIDER_SETTINGS: SearchProviderSettings = {
  dataforseo: null,
  serpapi: null,
  gsc: { baseUrl: GSC_DEFAULT_BASE_URL, tokenUrl: GOOGLE_TOKEN_URL },
  timeoutMs: 30_000,
  maxAttempts: 4,
  backoffBaseMs: 2_000,
  requestsPerSecond: 10,
  rankConcurrency: 4,
  metricsMaxAgeDays: 30,
  pollMs: 60_000,
}
