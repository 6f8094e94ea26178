import { z } from 'zod'
import { Id } from '../../shared/values.js'
import { InsightEvidence, InsightSeverity, InsightSource, InsightType, SettableInsightStatus } from './kinds.js'
import { fitsDescription, fitsTitle, META_DESCRIPTION_MAX_CHARS, META_TITLE_MAX_CHARS, MetaWriterName } from './meta-limits.js'

/**
 * SEO insights: one stream per client, `seo_insights-<client_id>`, because "one insight per natural key
 * while it holds" is decided against the client's whole set (a refresh raises what is new and resolves what
 * no longer holds, in one decision).
 */
export const SeoInsightRaised = z.object({
  insight_id: Id,
  client_id: Id,
  insight_type: InsightType,
  source: InsightSource,
  natural_key: z.string().min(1).max(2500),
  severity: InsightSeverity,
  summary: z.string().min(1).max(2000),
  keyword_id: Id.nullable(),
  page_id: Id.nullable(),
  /** The numbers that justify it, as they were when it was raised (fields per insight_type: README). */
  evidence: InsightEvidence,
})

/** A refresh found it no longer holds (the rank recovered, the page was associated, the CTR rose…). Final. */
export const SeoInsightResolved = z.object({ insight_id: Id, client_id: Id })

/**
 * Closes a refresh that raised or resolved something: `read_at` is when its inputs were read. A refresh whose
 * inputs were read before the last recorded one's is stale (another refresh saw newer data and decided
 * after it) and records nothing, so a slow refresh never undoes a newer one.
 */
export const SeoInsightsRefreshed = z.object({
  client_id: Id,
  read_at: z.iso.datetime({ offset: true }),
  raised: z.number().int().min(0),
  resolved: z.number().int().min(0),
})

/** update_seo_insight, or a meta optimization of the insight applied (status applied). */
export const SeoInsightStatusChanged = z.object({
  insight_id: Id,
  client_id: Id,
  status: SettableInsightStatus,
  note: z.string().max(2000),
})

/**
 * Meta optimizations: one stream per client, `meta_optimizations-<client_id>`, because "one open proposal
 * per page" is decided against the client's set. A proposal is a rewrite of a page's title and meta
 * description, usually for the query of a low_ctr insight.
 */
export const MetaTitle = z.string().refine(fitsTitle, `a title is 1 to ${META_TITLE_MAX_CHARS} characters`)
export const MetaDescription = z.string().refine(fitsDescription, `a description is 1 to ${META_DESCRIPTION_MAX_CHARS} characters`)

export const MetaOptimizationProposed = z.object({
  optimization_id: Id,
  client_id: Id,
  page_id: Id,
  page_url: z.string().max(2000),
  /** The low_ctr insight it answers (null: proposed by hand without one). */
  insight_id: Id.nullable(),
  /** The search query it is written for ('' when none). */
  query: z.string().max(500),
  /** The location written into it ('' when none). */
  location: z.string().max(200),
  current_title: z.string().max(500),
  current_description: z.string().max(2000),
  proposed_title: MetaTitle,
  proposed_description: MetaDescription,
  /** built-in, a person (manual), or the language model's name. */
  writer: MetaWriterName,
})

/** Staged as site edit `edit_id` (operation meta_rewrite), to be applied through apply_site_edit. */
export const MetaOptimizationStaged = z.object({ optimization_id: Id, client_id: Id, edit_id: Id })

/** Its site edit was published. */
export const MetaOptimizationApplied = z.object({ optimization_id: Id, client_id: Id, edit_id: Id })

/** Its site edit was rolled back: the page has its previous title and description again. */
export const MetaOptimizationRolledBack = z.object({ optimization_id: Id, client_id: Id, edit_id: Id })

export const MetaOptimizationRejected = z.object({
  optimization_id: Id,
  client_id: Id,
  rejected_by: z.string().min(1).max(200),
  reason: z.string().max(2000),
})

export const insightsEventSchemas = {
  SeoInsightRaised,
  SeoInsightResolved,
  SeoInsightStatusChanged,
  SeoInsightsRefreshed,
  MetaOptimizationProposed,
  MetaOptimizationStaged,
  MetaOptimizationApplied,
  MetaOptimizationRolledBack,
  MetaOptimizationRejected,
} as const

type Schemas = typeof insightsEventSchemas
export type InsightsEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type SeoInsightEvent = Extract<InsightsEvent, { type: `SeoInsight${string}` }>
export type MetaOptimizationEvent = Extract<InsightsEvent, { type: `MetaOptimization${string}` }>
