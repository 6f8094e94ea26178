import type { Kysely } from 'kysely'
import { createScansTables } from './monitoring-scans.js'
import { createSnapshotsTables } from './monitoring-snapshots.js'
import { createSiteChangesTables } from './monitoring-changes.js'
import { createArchitectureTables } from './monitoring-architecture.js'
import { createEntityChangesTables } from './monitoring-entity-changes.js'
import { createCooldownsTables } from './monitoring-cooldowns.js'
import { createRendersTables } from './monitoring-renders.js'

/** The site monitoring area's read models. */
export async function createMonitoringTables(db: Kysely<any>, schema: string): Promise<void> {
  await createScansTables(db, schema)
  await createSnapshotsTables(db, schema)
  await createSiteChangesTables(db, schema)
  await createArchitectureTables(db, schema)
  await createEntityChangesTables(db, schema)
  await createCooldownsTables(db, schema)
  await createRendersTables(db, schema)
}
