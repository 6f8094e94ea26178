import type { Projector } from '../../projector.js'

/** The metrics projectors. */
export const keywordMetricsProjectors: readonly Projector[] = []
