import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The blog sub-area's part of the realistic log: every event type it records. */
export async function writeBlogLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
