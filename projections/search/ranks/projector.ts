import type { Projector } from '../../projector.js'

/** The ranks projectors. */
export const ranksProjectors: readonly Projector[] = []
