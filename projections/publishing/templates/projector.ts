import type { Projector } from '../../projector.js'

/** The section templates, the template catalog and template pages sub-area's projectors. */
export const templatesProjectors: readonly Projector[] = []
