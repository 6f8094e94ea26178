import { z } from 'zod'
import { KEYWORD_MAX_LENGTH } from '../../keywords/events.js'
import { Id } from '../../shared/values.js'

/**
 * Keyword metrics are an organization's knowledge about a search phrase in one market: a keyword shared by
 * two clients of an organization is one row, keyed by its normalized text (keywordKey) × Google Ads
 * location. Each provider batch (or a caller's record_keyword_metrics) is a fetch with a stream of its own,
 * `keyword_metrics_fetch-<fetch_id>`, whose outcome is recorded once: the rows, or the coded failure.
 */

/** A fetch's id: a UUID the fetcher draws, so a fetch's stream can be created (expected no_stream) before any read model knows it. */
export const FetchId = z.uuid().describe('The fetch (a UUID, as list_keyword_metrics_fetches answered)')

/** The rows one KeywordMetricsRecorded carries: a 1000-keyword fetch is a few events appended at once, none of them huge. */
export const ROWS_PER_EVENT = 250
/** DataForSEO takes at most 1000 keywords per Google Ads search volume task (and per Labs difficulty task). */
export const MAX_KEYWORDS_PER_FETCH = 1000

export const CompetitionLevel = z.enum(['low', 'medium', 'high']).describe("Google Ads' paid-search competition: low, medium or high")

export const MonthlySearch = z
  .strictObject({
    year: z.number().int().min(2000).max(2100).describe('Calendar year'),
    month: z.number().int().min(1).max(12).describe('Calendar month, 1-12'),
    search_volume: z.number().int().min(0).nullable().describe('Searches that month; null when Google Ads has none'),
  })
  .describe('Searches in one month')

/** The Google Ads market the numbers are for (DataForSEO location and language codes). */
export const MetricsLocation = z.object({
  location_code: z.number().int().positive().describe('The Google Ads location code (2840: United States)'),
  location_name: z.string().min(1).max(200).describe('The location, e.g. United States'),
  language_code: z.string().min(2).max(10).describe('The language code, e.g. en'),
})
export type MetricsLocation = z.infer<typeof MetricsLocation>

/** The numbers of one keyword; null: unknown (no data from the provider, or not given by the caller). */
export const MetricsValues = z.object({
  search_volume: z.number().int().min(0).nullable(),
  cpc: z.number().min(0).nullable(),
  competition: CompetitionLevel.nullable(),
  competition_index: z.number().int().min(0).max(100).nullable(),
  low_top_of_page_bid: z.number().min(0).nullable(),
  high_top_of_page_bid: z.number().min(0).nullable(),
  difficulty: z.number().int().min(0).max(100).nullable(),
  /** Newest first. */
  monthly_searches: z.array(MonthlySearch).max(60),
})
export type MetricsValues = z.infer<typeof MetricsValues>

export const KeywordMetricsRow = MetricsValues.extend({
  /** keywordKey(keyword): the identity across the organization's clients. */
  keyword_key: z.string().min(1).max(KEYWORD_MAX_LENGTH),
  /** The phrase as sent to the provider or given by the caller. */
  keyword: z.string().min(1).max(KEYWORD_MAX_LENGTH),
  /** Google Ads' spelling correction, when it answered for a corrected phrase. */
  spell: z.string().max(200).nullable(),
})
export type KeywordMetricsRow = z.infer<typeof KeywordMetricsRow>

/** dataforseo: fetched by the metrics processor; recorded: given by a caller of record_keyword_metrics. */
export const MetricsSource = z
  .enum(['dataforseo', 'recorded'])
  .describe('dataforseo (fetched by the service) or recorded (record_keyword_metrics)')
export type MetricsSource = z.infer<typeof MetricsSource>

export const METRICS_FAILURE_CODES = [
  'metrics_provider_unauthorized',
  'metrics_provider_payment_required',
  'metrics_provider_rate_limited',
  'metrics_provider_unavailable',
  'metrics_provider_rejected',
] as const
export const MetricsFailureCode = z.enum(METRICS_FAILURE_CODES)
export type MetricsFailureCode = z.infer<typeof MetricsFailureCode>

/** A provider failure as recorded: our code, the provider's words, and its HTTP and DataForSEO status when it gave them. */
export const ProviderFailure = z.object({
  code: MetricsFailureCode,
  message: z.string().max(1000),
  http_status: z.number().int().nullable(),
  provider_status: z.number().int().nullable(),
})
export type ProviderFailure = z.infer<typeof ProviderFailure>

/** fetched: Labs difficulty was fetched; unavailable: its call failed (difficulty_error); not_requested: recorded by a caller. */
export const DifficultyOutcome = z.enum(['fetched', 'unavailable', 'not_requested'])

const Fetch = z.object({ fetch_id: FetchId, ...MetricsLocation.shape })

/** One part of a fetch's rows (a fetch's events are appended together, then KeywordMetricsFetchCompleted). */
export const KeywordMetricsRecorded = Fetch.extend({
  source: MetricsSource,
  rows: z.array(KeywordMetricsRow).min(1).max(ROWS_PER_EVENT),
})

/** A fetch's summary, after its rows: what it cost and how it went. */
export const KeywordMetricsFetchCompleted = Fetch.extend({
  source: MetricsSource,
  keywords: z.number().int().min(1).max(MAX_KEYWORDS_PER_FETCH),
  with_data: z.number().int().min(0).max(MAX_KEYWORDS_PER_FETCH),
  difficulty: DifficultyOutcome,
  difficulty_error: ProviderFailure.nullable(),
  attempts: z.number().int().min(1),
  provider_calls: z.number().int().min(0),
  cost_usd: z.number().min(0).nullable(),
  /** The last failed attempt before the one that succeeded (an outage that was retried away). */
  last_error: ProviderFailure.nullable(),
})

/** A fetch that got no rows after its attempts: the keywords it was for keep their old numbers, and show the error. */
export const KeywordMetricsFetchFailed = Fetch.extend({
  keywords: z
    .array(z.object({ keyword_key: z.string().min(1).max(KEYWORD_MAX_LENGTH), keyword: z.string().min(1).max(KEYWORD_MAX_LENGTH) }))
    .min(1)
    .max(MAX_KEYWORDS_PER_FETCH),
  error: ProviderFailure,
  attempts: z.number().int().min(1),
  provider_calls: z.number().int().min(0),
  cost_usd: z.number().min(0).nullable(),
})

/** refresh_keyword_metrics: the client's keywords are wanted again now, whatever their age. */
export const KeywordMetricsRefreshRequested = z.object({
  client_id: Id,
  ...MetricsLocation.shape,
  keyword_keys: z.array(z.string().min(1).max(KEYWORD_MAX_LENGTH)).min(1).max(5000),
})

export const keywordMetricsEventSchemas = {
  KeywordMetricsRecorded,
  KeywordMetricsFetchCompleted,
  KeywordMetricsFetchFailed,
  KeywordMetricsRefreshRequested,
} as const

type Schemas = typeof keywordMetricsEventSchemas
export type KeywordMetricsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type FetchEvent = Exclude<KeywordMetricsEvent, { type: 'KeywordMetricsRefreshRequested' }>
export type RefreshEvent = Extract<KeywordMetricsEvent, { type: 'KeywordMetricsRefreshRequested' }>
