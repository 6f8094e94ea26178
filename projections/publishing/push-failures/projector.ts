import type { Projector } from '../../projector.js'

/** The push failures sub-area's projectors. */
export const pushFailuresProjectors: readonly Projector[] = []
