import type { AnyRpc } from '../../registry.js'
import { scansRpcs } from './scans.js'
import { snapshotsRpcs } from './snapshots.js'
import { siteChangesRpcs } from './changes.js'
import { architectureRpcs } from './architecture.js'
import { entityChangesRpcs } from './entity-changes.js'
import { cooldownsRpcs } from './cooldowns.js'
import { rendersRpcs } from './renders.js'

/** The site monitoring area's methods. */
export const monitoringRpcs: readonly AnyRpc[] = [
  ...scansRpcs,
  ...snapshotsRpcs,
  ...siteChangesRpcs,
  ...architectureRpcs,
  ...entityChangesRpcs,
  ...cooldownsRpcs,
  ...rendersRpcs,
]
