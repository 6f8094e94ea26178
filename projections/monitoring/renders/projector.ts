import type { Projector } from '../../projector.js'

/** The renders sub-area's projectors. */
export const rendersProjectors: readonly Projector[] = []
