import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'
import { writeSiteConnectionsLog } from './publishing-connections.js'
import { writePushFailuresLog } from './publishing-push-failures.js'
import { writeRedirectsLog } from './publishing-redirects.js'
import { writeContentPagesLog } from './publishing-content-pages.js'
import { writeWebsiteProjectsLog } from './publishing-projects.js'
import { writeTemplatesLog } from './publishing-templates.js'

/** The publishing area's part of the realistic log. */
export async function writePublishingLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  await writeSiteConnectionsLog(ts, log, keys)
  await writePushFailuresLog(ts, log, keys)
  await writeRedirectsLog(ts, log, keys)
  await writeContentPagesLog(ts, log, keys)
  await writeWebsiteProjectsLog(ts, log, keys)
  await writeTemplatesLog(ts, log, keys)
}
