import type { Candidate } from './candidates.js'

/**
 * Which candidates become the month's items: ranked by expected impact per hour, then fitted to the hours
 * the month has left. Pure; the job gathers the inputs and adds what this chooses.
 *
 * - A candidate whose source key is held already (by this month's items, even deleted ones, or by an item of
 *   an earlier month: a finding gets one item, ever, and carries on by carry-over) is `existing`: never
 *   added twice, so the strategist can run again.
 * - The month's live items (carried-over ones first among them) spend its hours before anything new:
 *   remaining = available − hours of the live items that are not skipped.
 * - In rank order a candidate is chosen when its hours fit what remains, else deferred (`over_budget`);
 *   a later, smaller one may still fit. No budget (available null): every candidate fits.
 * - At most MAX_NEW_ITEMS are added per run (a month of more is not a plan a person can follow); the rest
 *   are deferred (`cap`) and come back next run.
 */
export const MAX_NEW_ITEMS = 50

export interface MonthSoFar {
  /** Source keys held already: the month's items' (deleted ones' too) and earlier months' items'. */
  readonly sourceKeys: ReadonlySet<string>
  /** Hours of the month's live items that are not skipped. */
  readonly committedHours: number
}

export interface Deferred {
  readonly candidate: Candidate
  readonly reason: 'over_budget' | 'cap'
}

export interface MonthPlan {
  readonly chosen: readonly Candidate[]
  readonly existing: readonly Candidate[]
  readonly deferred: readonly Deferred[]
  /** Hours available this month (budget, with rollover when known); null: no budget. */
  readonly availableHours: number | null
  /** Hours of the month's items after this plan: committed + chosen. */
  readonly plannedHours: number
}

const round = (hours: number): number => Math.round(hours * 100) / 100

/** Impact per hour, descending; then impact; then the source key, so equal candidates keep one order. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  const perHour = (c: Candidate) => c.impact / Math.max(c.hours, 0.25)
  return perHour(b) - perHour(a) || b.impact - a.impact || (a.source_key < b.source_key ? -1 : a.source_key > b.source_key ? 1 : 0)
}

export function planMonth(
  candidates: readonly Candidate[],
  month: MonthSoFar,
  availableHours: number | null,
  cap = MAX_NEW_ITEMS,
): MonthPlan {
  const ranked = [...candidates].sort(compareCandidates)
  const chosen: Candidate[] = []
  const existing: Candidate[] = []
  const deferred: Deferred[] = []
  let remaining = availableHours === null ? Number.POSITIVE_INFINITY : availableHours - month.committedHours
  for (const candidate of ranked) {
    if (month.sourceKeys.has(candidate.source_key)) existing.push(candidate)
    else if (chosen.length >= cap) deferred.push({ candidate, reason: 'cap' })
    else if (candidate.hours > remaining + 1e-9) deferred.push({ candidate, reason: 'over_budget' })
    else {
      chosen.push(candidate)
      remaining -= candidate.hours
    }
  }
  const plannedHours = round(month.committedHours + chosen.reduce((sum, c) => sum + c.hours, 0))
  return { chosen, existing, deferred, availableHours, plannedHours }
}
