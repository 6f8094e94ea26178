import { rankRowKey, type RankDevice } from '../ranks/rank-row.js'
import type { CheckPlan } from './client-checks.js'
import type { RankTask } from './serp.js'

/** A check's plan: every keyword × location (none: one national search) × device. */
export function checkPlan(keywordIds: readonly number[], locationIds: readonly number[], devices: readonly RankDevice[]): CheckPlan {
  const locations = Math.max(1, locationIds.length)
  return {
    keyword_ids: [...keywordIds],
    location_ids: [...locationIds],
    devices: [...devices],
    tasks_total: keywordIds.length * locations * devices.length,
  }
}

/**
 * The plan's tasks, keyword by keyword (so a keyword's locations and devices are checked together), less
 * those whose rank is already recorded for `date` (a resumed check fetches only what is missing).
 */
export function pendingTasks(plan: CheckPlan, date: string, recorded: ReadonlySet<string>): RankTask[] {
  const locations: (number | null)[] = plan.location_ids.length === 0 ? [null] : [...plan.location_ids]
  const tasks: RankTask[] = []
  for (const keyword_id of plan.keyword_ids) {
    for (const location_id of locations) {
      for (const device of plan.devices) {
        if (!recorded.has(rankRowKey({ keyword_id, location_id, device, date }))) tasks.push({ keyword_id, location_id, device })
      }
    }
  }
  return tasks
}
