import type { Projector } from '../../projector.js'

/** The surveys projectors. */
export const surveysProjectors: readonly Projector[] = []
