import { z } from 'zod'
import { recordCallerMetrics, requestMetricsRefresh } from '../../../commands/search/metrics.js'
import { KEYWORD_MAX_LENGTH } from '../../../domain/keywords/events.js'
import { keywordKey } from '../../../domain/keywords/text.js'
import { CompetitionLevel, MAX_KEYWORDS_PER_FETCH, MetricsSource, MonthlySearch } from '../../../domain/search/metrics/events.js'
import { DEFAULT_METRICS_MAX_AGE_DAYS } from '../../../domain/search/metrics/freshness.js'
import { locationOf, METRICS_COUNTRIES, METRICS_COUNTRY_SETTING, metricsCountryByCode } from '../../../domain/search/metrics/location.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { visibleKeyword } from '../../../projections/keywords/queries.js'
import { keywordsNeedingMetrics } from '../../../projections/search/metrics/needing.js'
import { clientKeywordMetrics, type Freshness, keywordMetrics, metricsFetches } from '../../../projections/search/metrics/queries.js'
import { requireOrgId } from '../../caller.js'
import { rpc, type AnyRpc, type RpcContext } from '../../registry.js'
import { ClientId, KeywordId } from '../ids.js'

const domain = 'search'

const LocationCode = z
  .number()
  .int()
  .refine((code) => metricsCountryByCode(code) !== undefined, {
    message: `a Google Ads country location code: ${METRICS_COUNTRIES.map((c) => `${c.location_code} (${c.country})`).join(', ')}`,
  })
  .describe('The Google Ads location code of a country, e.g. 2840 (United States) or 2826 (United Kingdom)')

const Location = {
  location_code: z.number().int().describe('The Google Ads location code of the market (2840: United States)'),
  location_name: z.string().describe('The market, e.g. United States'),
  language_code: z.string().describe('The search language of the market, e.g. en'),
}

const ErrorSummary = z
  .object({
    code: z.string().describe('metrics_provider_unauthorized, _payment_required, _rate_limited, _unavailable or _rejected'),
    message: z.string().describe("The provider's words"),
    at: z.string().describe('When the fetch failed (ISO 8601)'),
  })
  .nullable()
  .describe('The last failed fetch for this keyword since its numbers were recorded; null when none')

const Values = {
  search_volume: z.number().int().nullable().describe('Average monthly Google searches over the last 12 months; null: unknown'),
  cpc: z.number().nullable().describe('Average cost per click in USD (Google Ads); null: unknown'),
  competition: CompetitionLevel.nullable().describe('Paid-search competition: low, medium or high; null: unknown'),
  competition_index: z.number().int().nullable().describe('Paid-search competition, 0-100; null: unknown'),
  low_top_of_page_bid: z.number().nullable().describe('Top-of-page bid, low range (USD); null: unknown'),
  high_top_of_page_bid: z.number().nullable().describe('Top-of-page bid, high range (USD); null: unknown'),
  difficulty: z
    .number()
    .int()
    .nullable()
    .describe('Keyword difficulty 0-100 (DataForSEO Labs: how hard a top-10 organic rank is); null: unknown'),
  monthly_searches: z.array(MonthlySearch).describe('Searches per month, newest first'),
}

const KeywordMetricsSchema = z
  .object({
    keyword_id: KeywordId,
    client_id: ClientId,
    keyword: z.string().describe('The keyword as added'),
    ...Location,
    ...Values,
    spell: z.string().nullable().describe("Google Ads' corrected spelling, when it answered for one"),
    source: MetricsSource.nullable().describe('Where the numbers came from; null before any were recorded'),
    fetched_at: z.string().nullable().describe('When the numbers were recorded (ISO 8601); null: never'),
    status: z
      .enum(['fresh', 'missing', 'stale', 'refresh_requested'])
      .describe('fresh; missing (never recorded); stale (older than the configured age); refresh_requested (refresh_keyword_metrics)'),
    refresh_requested_at: z.string().nullable().describe('The last refresh_keyword_metrics that covered it (ISO 8601)'),
    last_error: ErrorSummary,
  })
  .describe("A keyword's search volume, cost and difficulty in its client's market")

const NeededSchema = z
  .object({
    org_id: z.number().int().describe('The organization the phrase belongs to'),
    keyword: z.string().describe('The phrase (the text of its oldest keyword)'),
    keyword_key: z.string().describe('The phrase normalized (lower-case letters and digits): what metrics are keyed by'),
    ...Location,
    keyword_ids: z.array(z.number().int()).describe('The active keywords with this phrase in this market'),
    client_ids: z.array(z.number().int()).describe('Their clients'),
    reason: z.enum(['missing', 'stale', 'refresh_requested']).describe('Why numbers are wanted'),
    fetched_at: z.string().nullable().describe('When its numbers were last recorded (ISO 8601); null: never'),
    last_error_code: z.string().nullable().describe('The code of the last failed fetch for it, if any'),
  })
  .describe('A phrase that needs metrics')

const CallerMetric = z
  .strictObject({
    keyword: z
      .string()
      .trim()
      .min(1)
      .max(KEYWORD_MAX_LENGTH)
      .refine((text) => keywordKey(text) !== '', 'a keyword needs letters or digits')
      .describe('The phrase; matched to keywords case-, punctuation- and spacing-insensitively'),
    search_volume: z.number().int().min(0).nullable().optional().describe('Average monthly searches'),
    cpc: z.number().min(0).nullable().optional().describe('Average cost per click (USD)'),
    competition: CompetitionLevel.nullable().optional().describe('low, medium or high'),
    competition_index: z.number().int().min(0).max(100).nullable().optional().describe('0-100'),
    low_top_of_page_bid: z.number().min(0).nullable().optional().describe('Top-of-page bid, low range (USD)'),
    high_top_of_page_bid: z.number().min(0).nullable().optional().describe('Top-of-page bid, high range (USD)'),
    difficulty: z.number().int().min(0).max(100).nullable().optional().describe('Keyword difficulty 0-100'),
    monthly_searches: z.array(MonthlySearch).max(60).optional().describe('Searches per month (any order)'),
  })
  .describe("One phrase's numbers; a number left out is recorded as unknown (null)")

const FetchSchema = z
  .object({
    fetch_id: z.string().describe('The fetch (a UUID)'),
    source: MetricsSource,
    status: z.enum(['succeeded', 'failed']).describe('succeeded: its rows were recorded; failed: none, see error'),
    ...Location,
    keywords: z.number().int().describe('Phrases in the fetch (a DataForSEO task holds up to 1000)'),
    with_data: z.number().int().describe('Phrases Google Ads had a search volume for'),
    difficulty: z.string().nullable().describe('fetched, unavailable (see difficulty_error) or not_requested; null for a failed fetch'),
    difficulty_error: z
      .object({ code: z.string().describe('The failure code'), message: z.string().describe("The provider's words") })
      .nullable()
      .describe('Why the Labs difficulty call failed (the volumes were still recorded)'),
    attempts: z.number().int().describe('Tries of the search volume call (retries after outages included)'),
    provider_calls: z.number().int().describe('HTTP calls made to DataForSEO for this fetch'),
    cost_usd: z.number().nullable().describe('What DataForSEO reported the calls cost, in USD; null when it reported nothing'),
    error: z
      .object({
        code: z.string().describe('metrics_provider_unauthorized, _payment_required, _rate_limited, _unavailable or _rejected'),
        message: z.string().describe("The provider's words"),
        http_status: z.number().int().nullable().describe('The HTTP status, when there was a response'),
        provider_status: z.number().int().nullable().describe("DataForSEO's status_code, when it gave one"),
      })
      .nullable()
      .describe('A failed fetch: why. A succeeded one: the last failed attempt before it (an outage retried away), or null'),
    recorded_at: z.string().describe('When the fetch ended (ISO 8601)'),
  })
  .describe('One provider batch (or one record_keyword_metrics call)')

const freshness = (ctx: RpcContext<unknown>): Freshness => ({
  now: ctx.write.clock(),
  maxAgeDays: ctx.settings.keywordMetricsMaxAgeDays ?? DEFAULT_METRICS_MAX_AGE_DAYS,
})

const EXAMPLE_METRICS = {
  keyword_id: 1501,
  client_id: 34,
  keyword: 'drain cleaning austin',
  location_code: 2840,
  location_name: 'United States',
  language_code: 'en',
  search_volume: 880,
  cpc: 14.37,
  competition: 'high' as const,
  competition_index: 78,
  low_top_of_page_bid: 6.12,
  high_top_of_page_bid: 21.9,
  difficulty: 23,
  monthly_searches: [
    { year: 2026, month: 10, search_volume: 1000 },
    { year: 2026, month: 9, search_volume: 880 },
  ],
  spell: null,
  source: 'dataforseo' as const,
  fetched_at: '2026-11-02T06:00:12.000Z',
  status: 'fresh' as const,
  refresh_requested_at: null,
  last_error: null,
}

export const keywordMetricsRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'get_unique_keywords_needing_metrics',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's phrases that need search volume, cost and difficulty: active keywords of active or staging clients, unique by " +
      "normalized text × market (a keyword two clients share is one entry), whose metrics are missing, older than the service's " +
      'KEYWORD_METRICS_MAX_AGE_DAYS, or asked for by refresh_keyword_metrics. Never-fetched first, then refresh requests, then the oldest. ' +
      'exclude_keywords leaves phrases out (compared like keywords). Record numbers for them with record_keyword_metrics.',
    example: {
      params: { limit: 100, exclude_keywords: ['plumber near me'] },
      result: [
        {
          org_id: 12,
          keyword: 'drain cleaning austin',
          keyword_key: 'drain cleaning austin',
          location_code: 2840,
          location_name: 'United States',
          language_code: 'en',
          keyword_ids: [1501, 1733],
          client_ids: [34, 35],
          reason: 'missing',
          fetched_at: null,
          last_error_code: null,
        },
      ],
    },
    params: z.strictObject({
      limit: z.number().int().min(1).max(10_000).default(1000).describe('At most this many phrases (default 1000, at most 10000)'),
      exclude_keywords: z
        .array(z.string().max(KEYWORD_MAX_LENGTH).describe('A phrase to leave out'))
        .max(10_000)
        .default([])
        .describe('Phrases to leave out, compared case-, punctuation- and spacing-insensitively'),
    }),
    result: z.array(NeededSchema),
    async handler(ctx) {
      const { now, maxAgeDays } = freshness(ctx)
      const needed = await keywordsNeedingMetrics(ctx.read, {
        orgId: ctx.orgId,
        now,
        maxAgeDays,
        excludeKeys: new Set(ctx.params.exclude_keywords.map(keywordKey)),
        limit: ctx.params.limit,
      })
      return needed.map((k) => ({
        org_id: k.orgId,
        keyword: k.keyword,
        keyword_key: k.keywordKey,
        ...k.location,
        keyword_ids: k.keywordIds,
        client_ids: k.clientIds,
        reason: k.need,
        fetched_at: k.fetchedAt === null ? null : k.fetchedAt.toISOString(),
        last_error_code: k.lastErrorCode,
      }))
    },
  }),
  rpc({
    name: 'get_keyword_metrics',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "A keyword's search volume, CPC, competition, difficulty and monthly searches in its client's market, with when they were recorded, " +
      'whether they are fresh, and the last failed fetch. Before any are recorded the numbers are null and status is missing.',
    example: { params: { keyword_id: 1501 }, result: EXAMPLE_METRICS },
    params: z.strictObject({ keyword_id: KeywordId }),
    result: KeywordMetricsSchema,
    async handler(ctx) {
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      return keywordMetrics(ctx.read, keyword, freshness(ctx))
    },
  }),
  rpc({
    name: 'get_keyword_metrics_for_client',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The client's active keywords with their metrics (as get_keyword_metrics), in the order they were added. The market is the client's " +
      `country: its ${METRICS_COUNTRY_SETTING} setting, else the first of its locations that names one, else the United States.`,
    example: { params: { client_id: 34 }, result: [EXAMPLE_METRICS] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(KeywordMetricsSchema),
    paginated: { maxLimit: 1000, defaultLimit: 1000 },
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return clientKeywordMetrics(ctx.read, client, ctx.page!, freshness(ctx))
    },
  }),
  rpc({
    name: 'record_keyword_metrics',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Record metrics an agent or another tool brings, for up to 1000 phrases in one market (location_code, as get_unique_keywords_' +
      "needing_metrics names it). Each phrase's row is replaced: numbers left out are unknown (null). Phrases are matched to the " +
      "organization's keywords case-, punctuation- and spacing-insensitively. Returns the fetch it was recorded as.",
    example: {
      params: {
        location_code: 2840,
        metrics: [
          { keyword: 'drain cleaning austin', search_volume: 880, cpc: 14.37, competition: 'high', competition_index: 78, difficulty: 23 },
        ],
      },
      result: {
        fetch_id: '6f1c2a9e-3b7d-4c55-9a0e-2d8f4b1e7c30',
        recorded: 1,
        location_code: 2840,
        location_name: 'United States',
        language_code: 'en',
      },
    },
    params: z.strictObject({
      location_code: LocationCode,
      metrics: z.array(CallerMetric).min(1).max(MAX_KEYWORDS_PER_FETCH).describe('The numbers, one entry per phrase (up to 1000)'),
    }),
    result: z
      .object({
        fetch_id: z.string().describe('The fetch it was recorded as (list_keyword_metrics_fetches shows it)'),
        recorded: z.number().int().describe('Distinct phrases recorded'),
        ...Location,
      })
      .describe('What was recorded'),
    async handler(ctx) {
      const orgId = requireOrgId(ctx.orgId)
      const location = locationOf(metricsCountryByCode(ctx.params.location_code)!)
      const { fetchId, recorded } = await recordCallerMetrics(ctx.write, ctx.command, { orgId, location, metrics: ctx.params.metrics })
      return { fetch_id: fetchId, recorded, ...location }
    },
  }),
  rpc({
    name: 'refresh_keyword_metrics',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Ask for fresh metrics for the client's active keywords now, whatever their age: with DataForSEO configured, the service fetches " +
      'them on its next pass (SEARCH_POLL_MS), even while a credentials or billing failure holds the organization back; they also show ' +
      'in get_unique_keywords_needing_metrics as refresh_requested. Returns how many phrases were marked.',
    example: {
      params: { client_id: 34 },
      result: { client_id: 34, keywords: 42, location_code: 2840, location_name: 'United States', language_code: 'en' },
    },
    params: z.strictObject({ client_id: ClientId }),
    result: z
      .object({
        client_id: ClientId,
        keywords: z.number().int().describe("Distinct phrases of the client's active keywords marked for a refresh (0: it has none)"),
        ...Location,
      })
      .describe('The refresh request'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const { location, keywords } = await requestMetricsRefresh(ctx.write, ctx.command, { callerOrgId: ctx.orgId, clientId: client.id })
      return { client_id: client.id, keywords, ...location }
    },
  }),
  rpc({
    name: 'list_keyword_metrics_fetches',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's keyword metrics fetches, newest first: each DataForSEO batch (one task of up to 1000 phrases per market) and " +
      'each record_keyword_metrics call, with its outcome, attempts, calls, reported cost and coded error (a 401 is ' +
      'metrics_provider_unauthorized, a 402 metrics_provider_payment_required). status filters.',
    example: {
      params: { status: 'failed' },
      result: [
        {
          fetch_id: '0b6f3c1d-8e2a-4f7b-9c5d-1a2b3c4d5e6f',
          source: 'dataforseo',
          status: 'failed',
          location_code: 2840,
          location_name: 'United States',
          language_code: 'en',
          keywords: 42,
          with_data: 0,
          difficulty: null,
          difficulty_error: null,
          attempts: 1,
          provider_calls: 1,
          cost_usd: null,
          error: { code: 'metrics_provider_payment_required', message: 'Payment Required.', http_status: 402, provider_status: 40200 },
          recorded_at: '2026-11-02T06:00:12.000Z',
        },
      ],
    },
    params: z.strictObject({
      status: z.enum(['succeeded', 'failed']).optional().describe('Only fetches that succeeded, or only those that failed'),
    }),
    result: z.array(FetchSchema),
    paginated: { maxLimit: 500, defaultLimit: 50 },
    handler: async (ctx) => metricsFetches(ctx.read, ctx.orgId, ctx.page!, ctx.params.status),
  }),
]
