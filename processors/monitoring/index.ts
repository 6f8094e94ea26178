import type { Processor, ProcessorDeps } from '../runtime.js'
import { scansProcessors } from './scans/index.js'
import { snapshotsProcessors } from './snapshots/index.js'
import { siteChangesProcessors } from './changes/index.js'
import { architectureProcessors } from './architecture/index.js'
import { entityChangesProcessors } from './entity-changes/index.js'
import { cooldownsProcessors } from './cooldowns/index.js'
import { rendersProcessors } from './renders/index.js'

/** The site monitoring area's processors. */
export function monitoringProcessors(deps: ProcessorDeps): Processor[] {
  return [
    ...scansProcessors(deps),
    ...snapshotsProcessors(deps),
    ...siteChangesProcessors(deps),
    ...architectureProcessors(deps),
    ...entityChangesProcessors(deps),
    ...cooldownsProcessors(deps),
    ...rendersProcessors(deps),
  ]
}
