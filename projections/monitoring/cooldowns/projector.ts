import type { Projector } from '../../projector.js'

/** The cooldowns sub-area's projectors. */
export const cooldownsProjectors: readonly Projector[] = []
