import type { Projector } from '../../projector.js'

/** The images sub-area's projectors. */
export const imagesProjectors: readonly Projector[] = []
