import type { Projector } from '../../projector.js'

/** The changes sub-area's projectors. */
export const siteChangesProjectors: readonly Projector[] = []
