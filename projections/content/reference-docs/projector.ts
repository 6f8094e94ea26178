import type { Projector } from '../../projector.js'

/** The reference-docs sub-area's projectors. */
export const referenceDocsProjectors: readonly Projector[] = []
