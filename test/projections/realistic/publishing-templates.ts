import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The section templates, the template catalog and template pages sub-area's part of the realistic log: every event type it records. */
export async function writeTemplatesLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
