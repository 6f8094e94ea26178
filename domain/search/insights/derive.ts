import { compareFindings, type Finding, type InsightType } from './kinds.js'
import type { InsightInputs } from './inputs.js'
import { aiAnswersFindings } from './rules/ai-answers.js'
import { aiOverviewFindings } from './rules/ai-overview.js'
import { cannibalizationFindings } from './rules/cannibalization.js'
import { keywordWithoutPageFindings } from './rules/keyword-without-page.js'
import { lowCtrFindings } from './rules/low-ctr.js'
import { pageProblemFindings } from './rules/page-problem.js'
import { rankDropFindings } from './rules/rank-drop.js'

/**
 * The most findings of one type kept per client, most severe first: an agency reads a list, not thousands
 * of rows, and one refresh stays a bounded append. Beyond it the least severe are left out (and, if they
 * had been raised, resolved) until the ones above them are dealt with.
 */
export const MAX_FINDINGS_PER_TYPE = 500

/** Every rule over the inputs: the insights that hold now, one per natural key, most severe first. */
export function deriveInsights(inputs: InsightInputs): Finding[] {
  const all = [
    ...rankDropFindings(inputs),
    ...keywordWithoutPageFindings(inputs),
    ...cannibalizationFindings(inputs),
    ...lowCtrFindings(inputs),
    ...aiOverviewFindings(inputs),
    ...aiAnswersFindings(inputs),
    ...pageProblemFindings(inputs),
  ].sort(compareFindings)
  const keys = new Set<string>()
  const perType = new Map<InsightType, number>()
  const kept: Finding[] = []
  for (const finding of all) {
    // Two spellings of one query (Search Console keeps both) make one key: the more severe one stands.
    if (keys.has(finding.natural_key)) continue
    const count = perType.get(finding.insight_type) ?? 0
    if (count >= MAX_FINDINGS_PER_TYPE) continue
    keys.add(finding.natural_key)
    perType.set(finding.insight_type, count + 1)
    kept.push(finding)
  }
  return kept
}
