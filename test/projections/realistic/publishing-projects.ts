import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** The website projects, sitemap pages and generated content sub-area's part of the realistic log: every event type it records. */
export async function writeWebsiteProjectsLog(_ts: TestSystem, _log: RealisticLog, _keys: { orgA: string; orgB: string }): Promise<void> {}
