import type { Projector } from '../../projector.js'

/** The insights projectors. */
export const insightsProjectors: readonly Projector[] = []
