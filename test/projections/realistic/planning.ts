import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { writeActionItemsLog } from './planning-action-items.js'
import { writeClientGroupsLog } from './planning-groups.js'
import { writeCyclesLog } from './planning-cycles.js'
import { writeCompareReportsLog } from './planning-compare-reports.js'

/** The planning area's part of the realistic log. */
export async function writePlanningLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  await writeActionItemsLog(ts, log, keys)
  await writeClientGroupsLog(ts, log, keys)
  await writeCyclesLog(ts, log, keys)
  await writeCompareReportsLog(ts, log, keys)
}
