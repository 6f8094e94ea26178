import type { Projector } from '../../projector.js'

/** The entity-changes sub-area's projectors. */
export const entityChangesProjectors: readonly Projector[] = []
