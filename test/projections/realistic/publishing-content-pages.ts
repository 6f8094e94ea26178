import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The content pages and Elementor pages sub-area's part of the realistic log: every event type it records. */
export async function writeContentPagesLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
