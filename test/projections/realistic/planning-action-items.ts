import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The action items part of the realistic log. */
export async function writeActionItemsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
