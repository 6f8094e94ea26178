import { z } from 'zod'
import { Id } from '../../shared/values.js'

/**
 * One rank observation: where a client stood for one keyword, at one of its locations, on one device, on
 * one day. The key is keyword × location × device × date: recording the same key again never adds a row.
 * Rank checks (processors/search/rank-checks) and callers of record_keyword_ranks both write this shape.
 *
 * Note for rank checks (helper C): write rows through `recordKeywordRanks(deps, context, { clientId, rows,
 * checkId, overwrite: false })` in commands/search/ranks.ts, a day's rows in one call (or hundreds at a time):
 * each call folds the client's day. It answers `{ recorded, updated, unchanged, position }`; with overwrite
 * false a key the day already has is left as it is (`unchanged`), so a retried check records nothing twice.
 */
export const RankDevice = z.enum(['desktop', 'mobile']).describe('The device the results were fetched for')
export type RankDevice = z.infer<typeof RankDevice>

/** `YYYY-MM-DD` (UTC). */
export const RankDate = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'expected a date as YYYY-MM-DD')
  // A day the calendar has (no 2026-02-30): the same day back from a UTC date.
  .refine((day) => new Date(`${day}T00:00:00Z`).toISOString().startsWith(day), 'expected a day of the calendar')
  .describe('The day the rank was observed, YYYY-MM-DD (UTC)')

/** The deepest result a check reads: a client not in the top 100 has no position. */
export const MAX_RANK_POSITION = 100
/** Competitors kept per row: the top 10 organic domains that are not the client's. */
export const MAX_COMPETITORS = 10
/** The most ranks one record_keyword_ranks call takes (a rank check's own writes are not bounded by it). */
export const MAX_RANKS_PER_CALL = 1000

export const SerpFeatures = z
  .strictObject({
    local_pack: z.boolean().describe('A map pack was shown'),
    local_pack_includes_client: z.boolean().describe("The client's business was in the map pack"),
    featured_snippet: z.boolean().describe('A featured snippet was shown'),
    featured_snippet_is_client: z.boolean().describe("The featured snippet quoted the client's site"),
    people_also_ask: z.boolean().describe('A People Also Ask box was shown'),
    ai_overview: z.boolean().describe("Google's AI Overview was shown"),
    ai_overview_cites_client: z.boolean().describe("The AI Overview cited a page of the client's site"),
  })
  .describe('The SERP features seen on the results page')
export type SerpFeatures = z.infer<typeof SerpFeatures>

export const NO_SERP_FEATURES: SerpFeatures = {
  local_pack: false,
  local_pack_includes_client: false,
  featured_snippet: false,
  featured_snippet_is_client: false,
  people_also_ask: false,
  ai_overview: false,
  ai_overview_cites_client: false,
}

/** Where a rank came from: a rank check through a provider, or a caller of record_keyword_ranks. */
export const RankSource = z.enum(['dataforseo', 'serpapi', 'recorded']).describe('Who observed the rank')
export type RankSource = z.infer<typeof RankSource>

export const RankRow = z.strictObject({
  keyword_id: Id.describe('The keyword'),
  /** null: the client has no locations (a national check). */
  location_id: Id.nullable().describe('The client location the results were localized to; null for a national check'),
  device: RankDevice,
  date: RankDate,
  position: z
    .number()
    .int()
    .min(1)
    .max(MAX_RANK_POSITION)
    .nullable()
    .describe("The client's best organic position, 1-100; null when it is not in the top 100"),
  url: z.string().max(2048).nullable().describe('The URL of the client that ranks; null when none does'),
  page_id: Id.nullable().describe('The client page that URL is (from the associations or by URL); null when none matches'),
  competitors: z.array(z.string().min(1).max(253)).max(MAX_COMPETITORS).describe('The top 10 organic domains that are not the client'),
  serp_features: SerpFeatures,
  source: RankSource,
})
export type RankRow = z.infer<typeof RankRow>

/** The idempotency key of a row. */
export function rankRowKey(row: Pick<RankRow, 'keyword_id' | 'location_id' | 'device' | 'date'>): string {
  return `${row.keyword_id}|${row.location_id ?? 0}|${row.device}|${row.date}`
}
