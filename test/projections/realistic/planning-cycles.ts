import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The hour budgets and cycles part of the realistic log. */
export async function writeCyclesLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
