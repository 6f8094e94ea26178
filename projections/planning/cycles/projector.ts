import type { Projector } from '../../projector.js'

/** The hour budgets and cycles sub-area's projectors. */
export const cyclesProjectors: readonly Projector[] = []
