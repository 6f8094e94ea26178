import type { Projector } from '../../projector.js'

/** The action items sub-area's projectors. */
export const actionItemsProjectors: readonly Projector[] = []
