import type { ScansReadModels } from './scans/tables.js'
import type { SnapshotsReadModels } from './snapshots/tables.js'
import type { SiteChangesReadModels } from './changes/tables.js'
import type { ArchitectureReadModels } from './architecture/tables.js'
import type { EntityChangesReadModels } from './entity-changes/tables.js'
import type { CooldownsReadModels } from './cooldowns/tables.js'
import type { RendersReadModels } from './renders/tables.js'

/** The site monitoring area's read models as kysely sees them. */
export type MonitoringReadModels = ScansReadModels &
  SnapshotsReadModels &
  SiteChangesReadModels &
  ArchitectureReadModels &
  EntityChangesReadModels &
  CooldownsReadModels &
  RendersReadModels
