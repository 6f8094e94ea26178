import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { writeScansLog } from './monitoring-scans.js'
import { writeSnapshotsLog } from './monitoring-snapshots.js'
import { writeSiteChangesLog } from './monitoring-changes.js'
import { writeArchitectureLog } from './monitoring-architecture.js'
import { writeEntityChangesLog } from './monitoring-entity-changes.js'
import { writeCooldownsLog } from './monitoring-cooldowns.js'
import { writeRendersLog } from './monitoring-renders.js'

/** The site monitoring area's part of the realistic log. */
export async function writeMonitoringLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  await writeScansLog(ts, log, keys)
  await writeSnapshotsLog(ts, log, keys)
  await writeSiteChangesLog(ts, log, keys)
  await writeArchitectureLog(ts, log, keys)
  await writeEntityChangesLog(ts, log, keys)
  await writeCooldownsLog(ts, log, keys)
  await writeRendersLog(ts, log, keys)
}
