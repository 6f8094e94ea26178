import type { Projector } from '../../projector.js'

/** The rank-checks projectors. */
export const rankChecksProjectors: readonly Projector[] = []
