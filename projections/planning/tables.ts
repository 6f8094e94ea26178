import type { ActionItemsReadModels } from './action-items/tables.js'
import type { ClientGroupsReadModels } from './groups/tables.js'
import type { CyclesReadModels } from './cycles/tables.js'
import type { CompareReportsReadModels } from './compare-reports/tables.js'

/** The planning area's read models as kysely sees them. */
export type PlanningReadModels = ActionItemsReadModels & ClientGroupsReadModels & CyclesReadModels & CompareReportsReadModels
