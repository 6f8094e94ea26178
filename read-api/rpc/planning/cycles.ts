import type { AnyRpc } from '../../registry.js'

/** The hour budgets and cycles sub-area's methods. */
export const cyclesRpcs: readonly AnyRpc[] = []
