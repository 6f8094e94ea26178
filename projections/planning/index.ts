import type { Projector } from '../projector.js'
import { actionItemsProjectors } from './action-items/projector.js'
import { clientGroupsProjectors } from './groups/projector.js'
import { cyclesProjectors } from './cycles/projector.js'
import { compareReportsProjectors } from './compare-reports/projector.js'

/** The planning area's projectors; each writes only its own tables. */
export const planningProjectors: readonly Projector[] = [
  ...actionItemsProjectors,
  ...clientGroupsProjectors,
  ...cyclesProjectors,
  ...compareReportsProjectors,
]
