import type { Proportion } from './wilson.js'

/**
 * Month-over-month verdicts. A rate "moved" only when this month's 95% interval and the previous month's
 * do not overlap at all; anything else is "within noise", however different the point estimates look.
 * Conservative on purpose: a report tells an agency's client that something changed, and with tens of
 * samples a month most swings are sampling noise.
 */
export const VERDICTS = ['moved up', 'moved down', 'within noise', 'no previous month'] as const
export type Verdict = (typeof VERDICTS)[number]

export function verdict(current: Proportion, previous: Proportion | null): Verdict {
  if (previous === null || previous.denominator === 0 || current.denominator === 0) return 'no previous month'
  if (current.ci95[0] > previous.ci95[1]) return 'moved up'
  if (current.ci95[1] < previous.ci95[0]) return 'moved down'
  return 'within noise'
}
