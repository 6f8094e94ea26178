import type { Projector } from '../../projector.js'

/** The blog sub-area's projectors. */
export const blogProjectors: readonly Projector[] = []
