import type { ActionItemTier } from '../action-items/events.js'

/**
 * Expected impact, 0–100: how much carrying out an item is worth, the strategist's ranking (per hour) and
 * what an item records as `impact`.
 *
 *   impact = severity base + demand bonus + tier bonus, clamped to 0–100, rounded to a whole number
 *   severity base: high 60, medium 40, low 20 (the insight's own judgement of what is at stake)
 *   demand bonus:  min(30, 10 × log10(1 + demand)); demand is the keyword's monthly search volume when
 *                  known, else the impressions or missed clicks of the evidence (0 when none): 10 searches
 *                  add 10, 100 add 20, 1,000 or more add 30, so demand orders findings of one severity
 *                  without letting a huge keyword drown a severe problem
 *   tier bonus:    A +10 (the service can carry it out itself: the gain comes soonest), B +5, C 0,
 *                  X −10 (market-driven: tracked, not promised)
 */
export type Severity = 'high' | 'medium' | 'low'

export const SEVERITY_BASE: Record<Severity, number> = { high: 60, medium: 40, low: 20 }
export const TIER_BONUS: Record<ActionItemTier, number> = { A: 10, B: 5, C: 0, X: -10 }
export const MAX_DEMAND_BONUS = 30

export function demandBonus(demand: number): number {
  if (!Number.isFinite(demand) || demand <= 0) return 0
  return Math.min(MAX_DEMAND_BONUS, 10 * Math.log10(1 + demand))
}

export function expectedImpact(input: { severity: Severity; demand: number; tier: ActionItemTier }): number {
  const raw = SEVERITY_BASE[input.severity] + demandBonus(input.demand) + TIER_BONUS[input.tier]
  return Math.round(Math.max(0, Math.min(100, raw)))
}
