import type { AnyRpc } from '../../registry.js'
import { actionItemsRpcs } from './action-items.js'
import { clientGroupsRpcs } from './groups.js'
import { cyclesRpcs } from './cycles.js'
import { compareReportsRpcs } from './compare-reports.js'

/** The planning area's methods. */
export const planningRpcs: readonly AnyRpc[] = [...actionItemsRpcs, ...clientGroupsRpcs, ...cyclesRpcs, ...compareReportsRpcs]
