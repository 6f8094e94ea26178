import type { Processor, ProcessorDeps } from '../runtime.js'
import { actionItemsProcessors } from './action-items/index.js'
import { clientGroupsProcessors } from './groups/index.js'
import { cyclesProcessors } from './cycles/index.js'
import { compareReportsProcessors } from './compare-reports/index.js'

/** The planning area's processors. */
export function planningProcessors(deps: ProcessorDeps): Processor[] {
  return [...actionItemsProcessors(deps), ...clientGroupsProcessors(deps), ...cyclesProcessors(deps), ...compareReportsProcessors(deps)]
}
