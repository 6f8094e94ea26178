import type { Projector } from '../projector.js'
import { scansProjectors } from './scans/projector.js'
import { snapshotsProjectors } from './snapshots/projector.js'
import { siteChangesProjectors } from './changes/projector.js'
import { architectureProjectors } from './architecture/projector.js'
import { entityChangesProjectors } from './entity-changes/projector.js'
import { cooldownsProjectors } from './cooldowns/projector.js'
import { rendersProjectors } from './renders/projector.js'

/** The site monitoring area's projectors; each writes only its own tables. */
export const monitoringProjectors: readonly Projector[] = [
  ...scansProjectors,
  ...snapshotsProjectors,
  ...siteChangesProjectors,
  ...architectureProjectors,
  ...entityChangesProjectors,
  ...cooldownsProjectors,
  ...rendersProjectors,
]
