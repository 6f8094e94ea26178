import { ACTION_TYPES, type KnownActionType } from '../action-items/action-types.js'
import type { ActionItemTier } from '../action-items/events.js'
import { expectedImpact, type Severity } from './impact.js'

/**
 * What the strategist can plan from: open SEO insights and open AI Visibility tracker items, as the read side
 * gathers them (the page URL and the keyword's search volume already looked up), turned into candidate
 * action items. Pure: the mapping from a finding to the work that answers it is decided here.
 */
export interface InsightInput {
  readonly id: number
  readonly insight_type: string
  readonly severity: Severity
  readonly summary: string
  /** The insight's page's URL (its page_id, else a URL the evidence names), '' when it names none. */
  readonly page_url: string
  readonly evidence: Readonly<Record<string, unknown>>
  /** The largest monthly search volume recorded for the insight's keyword (any location), null when none is. */
  readonly search_volume: number | null
}

export interface AeoItemInput {
  readonly id: number
  readonly tier: ActionItemTier
  readonly title: string
  readonly evidence: string
  /** Captures that found the item (all months). */
  readonly hit_count: number
}

export interface Candidate {
  readonly action_type: KnownActionType
  readonly tier: ActionItemTier
  readonly hours: number
  /** Expected impact 0–100 (impact.ts). */
  readonly impact: number
  readonly source: { readonly kind: 'insight' | 'aeo_item'; readonly id: number }
  /** `insight:<id>` or `aeo_item:<id>`: one item per source per month. */
  readonly source_key: string
  readonly page_url: string
  /** What the item is about, for its description (a keyword, a query, the tracker item's title). */
  readonly subject: string
  /** The finding in one line (the insight's summary, the tracker item's evidence). */
  readonly finding: string
}

/** A position from the evidence: still this close to the top, links from related pages can lift a page back. */
const LINKS_CAN_LIFT = 20

const text = (value: unknown): string => (typeof value === 'string' ? value : '')
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

/** The work that answers an insight, or null for a type the strategist does not plan. */
export function actionTypeForInsight(insight: Pick<InsightInput, 'insight_type' | 'evidence'>): KnownActionType | null {
  const e = insight.evidence
  switch (insight.insight_type) {
    case 'rank_drop': {
      // Still on the first two pages: a nudge of internal links (automatable); fallen further: the content itself.
      const position = num(e.position)
      return position !== null && position <= LINKS_CAN_LIFT ? 'internal_links' : 'improve_content'
    }
    case 'keyword_without_page':
      return 'create_page'
    case 'cannibalization':
      return 'resolve_cannibalization'
    case 'low_ctr':
      return 'title_meta_rewrite'
    case 'ai_overview_without_client':
    case 'ai_answers_without_client':
      return 'ai_overview_content'
    case 'page_problem': {
      const problem = text(e.problem)
      if (problem === 'gone') return 'redirect'
      if (problem === 'noindex') return 'remove_noindex'
      if (problem === 'no_title') return 'title_meta_rewrite'
      // An older evidence without `problem`: read the state it recorded.
      const status = num(e.status)
      if (status !== null && status >= 400) return 'redirect'
      if (e.noindex === true) return 'remove_noindex'
      return 'title_meta_rewrite'
    }
    default:
      return null
  }
}

/** The demand behind an insight: search volume when known, else the impressions or missed clicks its evidence shows. */
function insightDemand(insight: InsightInput): number {
  const e = insight.evidence
  return insight.search_volume ?? num(e.impressions) ?? num(e.missed_clicks) ?? 0
}

/** What an insight is about, for the description. */
function insightSubject(insight: InsightInput): string {
  const e = insight.evidence
  return text(e.keyword) || text(e.query) || text(e.prompt) || text(e.url) || insight.page_url || insight.summary
}

export function insightCandidate(insight: InsightInput): Candidate | null {
  const actionType = actionTypeForInsight(insight)
  if (actionType === null) return null
  const spec = ACTION_TYPES[actionType]
  return {
    action_type: actionType,
    tier: spec.tier,
    hours: spec.hours,
    impact: expectedImpact({ severity: insight.severity, demand: insightDemand(insight), tier: spec.tier }),
    source: { kind: 'insight', id: insight.id },
    source_key: `insight:${insight.id}`,
    page_url: insight.page_url,
    subject: insightSubject(insight),
    finding: insight.summary,
  }
}

/**
 * A tracker item's demand: each capture that found it stands for AEO_HIT_DEMAND monthly searches (an AI
 * answer is read by people who asked, but no volume is measured for it), so an item seen often ranks higher.
 */
export const AEO_HIT_DEMAND = 50

/** Tracker items carry no severity: A/B (website work) count as medium, C/X (off-site, market) as low. */
const AEO_SEVERITY: Record<ActionItemTier, Severity> = { A: 'medium', B: 'medium', C: 'low', X: 'low' }

export function aeoItemCandidate(item: AeoItemInput): Candidate {
  const spec = ACTION_TYPES.ai_visibility
  return {
    action_type: 'ai_visibility',
    tier: item.tier,
    hours: spec.hours,
    impact: expectedImpact({ severity: AEO_SEVERITY[item.tier], demand: item.hit_count * AEO_HIT_DEMAND, tier: item.tier }),
    source: { kind: 'aeo_item', id: item.id },
    source_key: `aeo_item:${item.id}`,
    page_url: '',
    subject: item.title,
    finding: item.evidence || item.title,
  }
}

/** Every candidate of the client's findings, one per source key (types the strategist does not plan are left out). */
export function candidatesFrom(insights: readonly InsightInput[], aeoItems: readonly AeoItemInput[]): Candidate[] {
  const byKey = new Map<string, Candidate>()
  for (const insight of insights) {
    const c = insightCandidate(insight)
    if (c) byKey.set(c.source_key, c)
  }
  for (const item of aeoItems) {
    const c = aeoItemCandidate(item)
    byKey.set(c.source_key, c)
  }
  return [...byKey.values()]
}
