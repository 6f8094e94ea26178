import type { Projector } from '../../projector.js'

/** The architecture sub-area's projectors. */
export const architectureProjectors: readonly Projector[] = []
