import { z } from 'zod'

/**
 * The kinds of SEO insight, where each comes from, and the states one goes through. An insight is a finding
 * the rules (rules/*.ts) derive from the read models, recorded once while it holds (its natural key) and
 * resolved when it stops holding.
 */
export const INSIGHT_TYPES = [
  'rank_drop',
  'keyword_without_page',
  'cannibalization',
  'low_ctr',
  'ai_overview_without_client',
  'ai_answers_without_client',
  'page_problem',
] as const
export const InsightType = z
  .enum(INSIGHT_TYPES)
  .describe(
    'rank_drop (fell ≥ 5 positions or out of the top 10), keyword_without_page (no page serves it), cannibalization (two client pages ' +
      'compete for one query), low_ctr (impressions, but CTR far below what the position earns), ai_overview_without_client ' +
      "(Google's AI Overview is shown and does not cite the client), ai_answers_without_client (the client ranks top 3, yet AI " +
      'engines answering the matching AI Visibility question never name it), page_problem (the latest crawl found an active page gone ' +
      '(4xx or 5xx), noindexed or without a title)',
  )
export type InsightType = z.infer<typeof InsightType>

/** Which data an insight is derived from: rank rows, Search Console rows, the site's pages and keywords, AI Visibility. */
export const INSIGHT_SOURCES = ['ranks', 'gsc', 'crawl', 'aeo'] as const
export const InsightSource = z
  .enum(INSIGHT_SOURCES)
  .describe("ranks (rank checks), gsc (Search Console), crawl (the client's pages and keywords), aeo (AI Visibility)")
export type InsightSource = z.infer<typeof InsightSource>

/** How much it is worth acting on: high first. */
export const INSIGHT_SEVERITIES = ['high', 'medium', 'low'] as const
export const InsightSeverity = z.enum(INSIGHT_SEVERITIES).describe('high, medium or low: how much acting on it is worth')
export type InsightSeverity = z.infer<typeof InsightSeverity>

/**
 * open: raised, nobody acted yet. applied: someone acted on it (update_seo_insight, or its meta optimization
 * was applied). dismissed: someone chose not to act; it is not raised again while it holds. resolved: it no
 * longer holds (final; if it comes back, a new insight is raised).
 */
export const INSIGHT_STATUSES = ['open', 'applied', 'dismissed', 'resolved'] as const
export const InsightStatus = z.enum(INSIGHT_STATUSES).describe('open, applied, dismissed or resolved (no longer holds)')
export type InsightStatus = z.infer<typeof InsightStatus>

/** What a person may set with update_seo_insight (resolved is the rules' to decide). */
export const SETTABLE_INSIGHT_STATUSES = ['open', 'applied', 'dismissed'] as const
export const SettableInsightStatus = z
  .enum(SETTABLE_INSIGHT_STATUSES)
  .describe('applied (acted on), dismissed (will not act; not raised again while it holds) or open (undo either)')
export type SettableInsightStatus = z.infer<typeof SettableInsightStatus>

/** The evidence of an insight: the numbers that justify it, a JSON object whose fields depend on insight_type. */
export const InsightEvidence = z.record(z.string(), z.unknown())
export type InsightEvidence = z.infer<typeof InsightEvidence>

/** What a rule finds: an insight that holds now, before it is recorded (the record adds an id and a state). */
export interface Finding {
  readonly insight_type: InsightType
  readonly source: InsightSource
  /** What makes two findings the same insight (type, source and subject): one record per key while it holds. */
  readonly natural_key: string
  readonly severity: InsightSeverity
  /** One line a person reads. */
  readonly summary: string
  readonly keyword_id: number | null
  readonly page_id: number | null
  readonly evidence: InsightEvidence
}

const SEVERITY_RANK: Record<InsightSeverity, number> = { high: 0, medium: 1, low: 2 }

/** Most severe first, then by key: the order findings are recorded in (and cut at the per-type cap). */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (a.natural_key < b.natural_key ? -1 : a.natural_key > b.natural_key ? 1 : 0)
  )
}
