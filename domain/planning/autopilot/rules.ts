import type { ScanFrequency } from '../../monitoring/scans/events.js'

/**
 * The autopilot's pure rules: who opted in, when the site is stale, what a step reports. No I/O: the handler
 * (autopilot.ts) reads and writes.
 */

/** The client setting a client opts in with (set_client_setting): "true", "1", "yes" or "on". */
export const AUTOPILOT_SETTING = 'autopilot_enabled'
const TRUE_VALUES = new Set(['true', '1', 'yes', 'on'])

export const optedIn = (settings: Readonly<Record<string, string>>): boolean =>
  TRUE_VALUES.has((settings[AUTOPILOT_SETTING] ?? '').trim().toLowerCase())

/** The longest the plan trusts a crawl: a month, whatever the cadence. */
export const MAX_CRAWL_AGE_DAYS = 30
const CADENCE_DAYS: Readonly<Record<ScanFrequency, number>> = { daily: 1, weekly: 7, off: MAX_CRAWL_AGE_DAYS }

/**
 * Why the site needs a crawl before planning, or null when the last one is recent enough: none completed yet,
 * or the last finished longer ago than the scan cadence's period (daily 1 day, weekly 7) or 30 days.
 */
export function staleReason(lastCrawlFinishedAt: Date | null, frequency: ScanFrequency, now: Date): string | null {
  if (lastCrawlFinishedAt === null) return 'no completed crawl yet'
  const days = Math.min(CADENCE_DAYS[frequency], MAX_CRAWL_AGE_DAYS)
  const age = now.getTime() - lastCrawlFinishedAt.getTime()
  if (age <= days * 86_400_000) return null
  return `the last crawl finished ${lastCrawlFinishedAt.toISOString()}, more than ${days} day${days === 1 ? '' : 's'} ago (cadence ${frequency})`
}

export type StepName = 'scan' | 'strategist' | 'execute_tier_a' | 'compare_report'
export type StepStatus = 'done' | 'skipped' | 'timed_out'

/** One step of the run as the result reports it. */
export interface StepReport {
  step: StepName
  status: StepStatus
  detail: string
}

export const STEPS: readonly StepName[] = ['scan', 'strategist', 'execute_tier_a', 'compare_report']
