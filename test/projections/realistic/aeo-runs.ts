import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The AI Visibility runs part of the realistic log: every write RPC of the part, through HTTP, on the
 * clients of `log` (keys: platform key unless given), including no-op repeats and foreign-org attempts.
 */
export async function writeAeoRunsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
