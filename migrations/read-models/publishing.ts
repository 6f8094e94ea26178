import type { Kysely } from 'kysely'
import { createSiteConnectionsTables } from './publishing-connections.js'
import { createPushFailuresTables } from './publishing-push-failures.js'
import { createRedirectsTables } from './publishing-redirects.js'
import { createContentPagesTables } from './publishing-content-pages.js'
import { createWebsiteProjectsTables } from './publishing-projects.js'
import { createTemplatesTables } from './publishing-templates.js'

/** The publishing area's read models. */
export async function createPublishingTables(db: Kysely<any>, schema: string): Promise<void> {
  await createSiteConnectionsTables(db, schema)
  await createPushFailuresTables(db, schema)
  await createRedirectsTables(db, schema)
  await createContentPagesTables(db, schema)
  await createWebsiteProjectsTables(db, schema)
  await createTemplatesTables(db, schema)
}
