import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The snapshots part of the realistic log. */
export async function writeSnapshotsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
