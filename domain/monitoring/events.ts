import { scansEventSchemas } from './scans/events.js'
import { snapshotsEventSchemas } from './snapshots/events.js'
import { siteChangesEventSchemas } from './changes/events.js'
import { architectureEventSchemas } from './architecture/events.js'
import { entityChangesEventSchemas } from './entity-changes/events.js'
import { cooldownsEventSchemas } from './cooldowns/events.js'
import { rendersEventSchemas } from './renders/events.js'

/** Every event schema of the site monitoring area (scans, snapshots, site changes, architecture, entity changes, cooldowns, renders). */
export const monitoringEventSchemas = {
  ...scansEventSchemas,
  ...snapshotsEventSchemas,
  ...siteChangesEventSchemas,
  ...architectureEventSchemas,
  ...entityChangesEventSchemas,
  ...cooldownsEventSchemas,
  ...rendersEventSchemas,
} as const
