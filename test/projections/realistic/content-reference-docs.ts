import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The reference-docs sub-area's part of the realistic log: every event type it records. */
export async function writeReferenceDocsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
