import type { Projector } from '../../projector.js'

/** The associations projectors. */
export const associationsProjectors: readonly Projector[] = []
