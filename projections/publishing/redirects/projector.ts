import type { Projector } from '../../projector.js'

/** The redirects sub-area's projectors. */
export const redirectsProjectors: readonly Projector[] = []
