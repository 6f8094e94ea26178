import type { Projector } from '../../projector.js'

/** The compare reports sub-area's projectors. */
export const compareReportsProjectors: readonly Projector[] = []
