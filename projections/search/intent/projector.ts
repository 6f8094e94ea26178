import type { Projector } from '../../projector.js'

/** The intent projectors. */
export const intentProjectors: readonly Projector[] = []
