import type { Projector } from '../../projector.js'

/** The gsc projectors. */
export const gscProjectors: readonly Projector[] = []
