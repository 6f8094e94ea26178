import { z } from 'zod'
import { recordCallerRanks, type RankInput } from '../../../commands/search/ranks.js'
import {
  MAX_COMPETITORS,
  MAX_RANK_POSITION,
  MAX_RANKS_PER_CALL,
  RankDate,
  RankDevice,
  RankSource,
  SerpFeatures,
  type SerpFeatures as SerpFeaturesValue,
} from '../../../domain/search/ranks/rank-row.js'
import { PRIMARY_DEVICE, seriesOf } from '../../../domain/search/ranks/series.js'
import { Id } from '../../../domain/shared/values.js'
import { visibleClient } from '../../../projections/clients/queries.js'
import { visibleKeyword } from '../../../projections/keywords/queries.js'
import { lastRanks, latestOfEachSeries, rankDates, rankedKeyword, rankOnOrBefore } from '../../../projections/search/ranks/queries.js'
import { rpc, type AnyRpc } from '../../registry.js'
import { ClientId, KeywordId, PageId } from '../ids.js'
import { coalescedRankHistory } from './ranks-history.js'

const domain = 'search'

export const DEFAULT_HISTORY_POINTS = 90
export const MAX_HISTORY_POINTS = 1000
export const DEFAULT_LAST_N = 10

const LocationId = Id.describe("The client's location (get_locations_for_client lists them)")

/** The optional series filters of the one-series reads. */
const seriesParams = {
  device: RankDevice.optional().describe('desktop or mobile (default desktop)'),
  location_id: LocationId.nullable()
    .optional()
    .describe(
      "The client location of the series; null for national ranks. Default: the location the keyword names, else the client's first location, else national",
    ),
}

const RankViewSchema = z
  .object({
    keyword_id: KeywordId,
    client_id: ClientId,
    location_id: LocationId.nullable().describe('The client location the results were localized to; null for a national rank'),
    device: RankDevice,
    date: RankDate,
    position: z.number().int().nullable().describe("The client's best organic position, 1-100; null when not in the top 100"),
    url: z.string().nullable().describe("The client's URL that ranks; null when none does"),
    page_id: PageId.nullable().describe('The client page that URL is; null when none matches'),
    competitors: z.array(z.string().describe('A domain')).describe('The top 10 organic domains that are not the client, best first'),
    serp_features: SerpFeatures,
    source: RankSource,
    check_id: Id.nullable().describe('The rank check that observed it; null when recorded by record_keyword_ranks'),
    recorded_at: z.string().describe('When this row was recorded (ISO 8601)'),
  })
  .describe('One rank: where the client stood for a keyword, at one location, on one device, on one day')

const exampleRank = {
  keyword_id: 1501,
  client_id: 34,
  location_id: 88,
  device: 'desktop' as const,
  date: '2026-03-02',
  position: 4,
  url: 'https://acmeplumbing.com/services/drain-cleaning',
  page_id: 220,
  competitors: ['rotorooter.com', 'yelp.com', 'mrrooter.com', 'angi.com', 'austinplumbingpros.com'],
  serp_features: {
    local_pack: true,
    local_pack_includes_client: true,
    featured_snippet: false,
    featured_snippet_is_client: false,
    people_also_ask: true,
    ai_overview: true,
    ai_overview_cites_client: false,
  },
  source: 'dataforseo' as const,
  check_id: 5120,
  recorded_at: '2026-03-02T06:12:40.000Z',
}

const flag = (what: string) => z.boolean().default(false).describe(`${what} (default false)`)

const SerpFeaturesInput = z
  .strictObject({
    local_pack: flag('A map pack was shown'),
    local_pack_includes_client: flag("The client's business was in the map pack"),
    featured_snippet: flag('A featured snippet was shown'),
    featured_snippet_is_client: flag("The featured snippet quoted the client's site"),
    people_also_ask: flag('A People Also Ask box was shown'),
    ai_overview: flag("Google's AI Overview was shown"),
    ai_overview_cites_client: flag("The AI Overview cited a page of the client's site"),
  })
  .refine((f) => f.local_pack || !f.local_pack_includes_client, 'local_pack_includes_client needs local_pack')
  .refine((f) => f.featured_snippet || !f.featured_snippet_is_client, 'featured_snippet_is_client needs featured_snippet')
  .refine((f) => f.ai_overview || !f.ai_overview_cites_client, 'ai_overview_cites_client needs ai_overview')
  .describe('The SERP features seen; each left out is false')

const RankInputSchema = z
  .strictObject({
    keyword_id: KeywordId,
    location_id: LocationId.nullable()
      .default(null)
      .describe('The client location the results were localized to; null or left out for national'),
    device: RankDevice,
    date: RankDate,
    position: z
      .number()
      .int()
      .min(1)
      .max(MAX_RANK_POSITION)
      .nullable()
      .describe(`The client's best organic position, 1-${MAX_RANK_POSITION}; null when it is not in the top ${MAX_RANK_POSITION}`),
    url: z.string().trim().min(1).max(2048).nullable().default(null).describe("The client's URL that ranks (default none)"),
    page_id: PageId.nullable()
      .optional()
      .describe("The client page that ranks; left out: the client's page whose URL is `url`, if any; null: none"),
    competitors: z
      .array(z.string().trim().min(1).max(253).describe('A domain, e.g. rotorooter.com'))
      .max(MAX_COMPETITORS)
      .default([])
      .describe(`Up to ${MAX_COMPETITORS} organic domains above or around the client that are not the client, best first (default none)`),
    serp_features: SerpFeaturesInput.default({
      local_pack: false,
      local_pack_includes_client: false,
      featured_snippet: false,
      featured_snippet_is_client: false,
      people_also_ask: false,
      ai_overview: false,
      ai_overview_cites_client: false,
    }),
  })
  .describe('One observed rank')

export const ranksRpcs: readonly AnyRpc[] = [
  rpc({
    name: 'record_keyword_ranks',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      `Record ranks observed elsewhere (an operator agent, another tracker): up to ${MAX_RANKS_PER_CALL} per call, each for a keyword ` +
      'of the client at one of its locations (or national), on one device and date. Idempotent per keyword × location × device × date: ' +
      'the same rank again changes nothing (unchanged); a different one replaces the row (updated), including a row a rank check wrote. ' +
      'page_id left out is matched by URL against the client pages. All or nothing: a rank naming a keyword of another client, a deleted ' +
      'keyword, a location or page the client does not have refuses the whole call (400). Returns the counts.',
    example: {
      params: {
        client_id: 34,
        ranks: [
          {
            keyword_id: 1501,
            location_id: 88,
            device: 'desktop',
            date: '2026-03-02',
            position: 4,
            url: 'https://acmeplumbing.com/services/drain-cleaning',
            competitors: ['rotorooter.com', 'yelp.com', 'mrrooter.com'],
            serp_features: { local_pack: true, local_pack_includes_client: true, people_also_ask: true },
          },
          { keyword_id: 1502, location_id: 88, device: 'mobile', date: '2026-03-02', position: null },
        ],
      },
      result: { recorded: 2, updated: 0, unchanged: 0 },
    },
    params: z.strictObject({
      client_id: ClientId,
      ranks: z.array(RankInputSchema).min(1).max(MAX_RANKS_PER_CALL).describe(`The ranks, 1 to ${MAX_RANKS_PER_CALL}`),
    }),
    result: z
      .object({
        recorded: z.number().int().describe('Ranks for a keyword, location, device and date that had none'),
        updated: z.number().int().describe('Ranks that replaced a different row of the same keyword, location, device and date'),
        unchanged: z.number().int().describe('Ranks identical to the row already recorded'),
      })
      .describe('What the call changed'),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      const ranks: RankInput[] = ctx.params.ranks.map((r) => ({ ...r, serp_features: r.serp_features as SerpFeaturesValue }))
      const { recorded, updated, unchanged } = await recordCallerRanks(ctx.write, ctx.command, { clientId: client.id, ranks })
      return { recorded, updated, unchanged }
    },
  }),
  rpc({
    name: 'get_available_rank_dates',
    domain,
    access: 'read',
    orgScoped: true,
    summary: 'The days the client has any rank for (any keyword, location or device), newest first, as YYYY-MM-DD; [] when none.',
    example: { params: { client_id: 34 }, result: ['2026-03-02', '2026-03-01', '2026-02-28'] },
    params: z.strictObject({ client_id: ClientId }),
    result: z.array(RankDate),
    async handler(ctx) {
      const client = await visibleClient(ctx.read, ctx.orgId, ctx.params.client_id)
      return rankDates(ctx.read, client.id)
    },
  }),
  rpc({
    name: 'get_latest_rank',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The latest rank of one series of the keyword: by default its primary series (desktop, at the location the keyword names, else the client's " +
      'first location, else national); device and location_id choose another. null when the series has none. ' +
      'get_latest_rank_for_keyword answers every series at once.',
    example: { params: { keyword_id: 1501 }, result: exampleRank },
    params: z.strictObject({ keyword_id: KeywordId, ...seriesParams }),
    result: RankViewSchema.nullable(),
    async handler(ctx) {
      const keyword = await rankedKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      const [latest] = await lastRanks(ctx.read, keyword.id, seriesOf(ctx.params, keyword.primaryLocationId), 1)
      return latest ?? null
    },
  }),
  rpc({
    name: 'get_latest_rank_for_keyword',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The latest rank of every series of the keyword (each location × device it has ranks for), ordered by location (national first) ' +
      'then desktop before mobile; device keeps one device. [] when the keyword has no ranks.',
    example: { params: { keyword_id: 1501 }, result: [exampleRank, { ...exampleRank, device: 'mobile', position: 6, check_id: 5121 }] },
    params: z.strictObject({ keyword_id: KeywordId, device: RankDevice.optional().describe('Only this device (default both)') }),
    result: z.array(RankViewSchema),
    async handler(ctx) {
      const keyword = await visibleKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      return latestOfEachSeries(ctx.read, keyword.id, ctx.params.device)
    },
  }),
  rpc({
    name: 'get_previous_rank',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The rank before the latest one of a series of the keyword (default its primary series, as get_latest_rank), to compare the two; ' +
      'null when the series has fewer than two.',
    example: {
      params: { keyword_id: 1501 },
      result: { ...exampleRank, date: '2026-03-01', position: 5, recorded_at: '2026-03-01T06:11:02.000Z' },
    },
    params: z.strictObject({ keyword_id: KeywordId, ...seriesParams }),
    result: RankViewSchema.nullable(),
    async handler(ctx) {
      const keyword = await rankedKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      const rows = await lastRanks(ctx.read, keyword.id, seriesOf(ctx.params, keyword.primaryLocationId), 2)
      return rows[1] ?? null
    },
  }),
  rpc({
    name: 'get_rank_for_date',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'The rank of a series of the keyword (default its primary series) on target_date; when that day has none, the latest before it ' +
      '(weekly checks skip days; the answer’s date says which day it is), unless exact is true. null when there is none.',
    example: { params: { keyword_id: 1501, target_date: '2026-03-02' }, result: exampleRank },
    params: z.strictObject({
      keyword_id: KeywordId,
      target_date: RankDate.describe('The day, YYYY-MM-DD (UTC)'),
      exact: z.boolean().default(false).describe('Only a rank of that very day (default false: the latest on or before it)'),
      ...seriesParams,
    }),
    result: RankViewSchema.nullable(),
    async handler(ctx) {
      const keyword = await rankedKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      const series = seriesOf(ctx.params, keyword.primaryLocationId)
      return rankOnOrBefore(ctx.read, keyword.id, series, ctx.params.target_date, ctx.params.exact)
    },
  }),
  rpc({
    name: 'get_last_n_ranks_for_keyword',
    domain,
    access: 'read',
    orgScoped: true,
    summary: `The latest n ranks (default ${DEFAULT_LAST_N}, at most ${MAX_HISTORY_POINTS}) of a series of the keyword (default its primary series), newest first.`,
    example: { params: { keyword_id: 1501, n: 2 }, result: [exampleRank, { ...exampleRank, date: '2026-03-01', position: 5 }] },
    params: z.strictObject({
      keyword_id: KeywordId,
      n: z
        .number()
        .int()
        .min(1)
        .max(MAX_HISTORY_POINTS)
        .default(DEFAULT_LAST_N)
        .describe(`How many, 1 to ${MAX_HISTORY_POINTS} (default ${DEFAULT_LAST_N})`),
      ...seriesParams,
    }),
    result: z.array(RankViewSchema),
    async handler(ctx) {
      const keyword = await rankedKeyword(ctx.read, ctx.orgId, ctx.params.keyword_id)
      return lastRanks(ctx.read, keyword.id, seriesOf(ctx.params, keyword.primaryLocationId), ctx.params.n)
    },
  }),
  rpc({
    name: 'get_rank_history',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      `Chart data for a series of the keyword (default its primary series): its latest \`limit\` ranks (default ${DEFAULT_HISTORY_POINTS}, ` +
      `at most ${MAX_HISTORY_POINTS}) as points oldest first, each with change: positions gained since the rank before it ` +
      '(positive: climbed; null when either is outside the top 100). [] points when the series has none.',
    example: {
      params: { keyword_id: 1501, limit: 3 },
      result: {
        keyword_id: 1501,
        keyword: 'drain cleaning austin',
        client_id: 34,
        location_id: 88,
        device: 'desktop',
        points: [
          {
            date: '2026-02-28',
            position: 7,
            change: 1,
            page_id: 220,
            ai_overview: true,
            ai_overview_cites_client: false,
          },
          {
            date: '2026-03-01',
            position: 5,
            change: 2,
            page_id: 220,
            ai_overview: true,
            ai_overview_cites_client: false,
          },
          {
            date: '2026-03-02',
            position: 4,
            change: 1,
            page_id: 220,
            ai_overview: true,
            ai_overview_cites_client: false,
          },
        ],
      },
    },
    params: z.strictObject({
      keyword_id: KeywordId,
      limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_HISTORY_POINTS)
        .default(DEFAULT_HISTORY_POINTS)
        .describe(
          `The latest this many ranks, 1 to ${MAX_HISTORY_POINTS} (default ${DEFAULT_HISTORY_POINTS}: three months of daily checks)`,
        ),
      ...seriesParams,
    }),
    result: z
      .object({
        keyword_id: KeywordId,
        keyword: z.string().describe('The keyword as added'),
        client_id: ClientId,
        location_id: LocationId.nullable().describe('The series’ location; null: national'),
        device: RankDevice,
        points: z
          .array(
            z
              .object({
                date: RankDate,
                position: z.number().int().nullable().describe('The position, 1-100; null: not in the top 100'),
                change: z
                  .number()
                  .int()
                  .nullable()
                  .describe(
                    'Positions gained since the rank before (positive: climbed); null when either is outside the top 100 or none is before',
                  ),
                page_id: PageId.nullable().describe(
                  'The client page that ranked; null when none of its pages did (get_last_n_ranks_for_keyword has the URL)',
                ),
                ai_overview: z.boolean().describe("Google's AI Overview was shown"),
                ai_overview_cites_client: z.boolean().describe("The AI Overview cited the client's site"),
              })
              .describe('One rank as a point of the chart'),
          )
          .describe('Oldest first'),
      })
      .describe("One series' rank chart"),
    handler: (ctx) =>
      coalescedRankHistory(ctx.read, ctx.orgId, {
        keywordId: ctx.params.keyword_id,
        device: ctx.params.device ?? PRIMARY_DEVICE,
        location: ctx.params.location_id,
        limit: ctx.params.limit,
      }),
  }),
]
