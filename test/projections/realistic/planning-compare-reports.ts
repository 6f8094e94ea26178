import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The compare reports part of the realistic log. */
export async function writeCompareReportsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
