import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The rank-checks part of the realistic log: every event type its projectors handle. */
export async function writeRankChecksLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
