import { actionItemsEventSchemas } from './action-items/events.js'
import { clientGroupsEventSchemas } from './groups/events.js'
import { cyclesEventSchemas } from './cycles/events.js'
import { compareReportsEventSchemas } from './compare-reports/events.js'

/** Every event schema of the planning area (action items, client groups, hour budgets and cycles, compare reports). */
export const planningEventSchemas = {
  ...actionItemsEventSchemas,
  ...clientGroupsEventSchemas,
  ...cyclesEventSchemas,
  ...compareReportsEventSchemas,
} as const
