import type { Projector } from '../../projector.js'

/** The site connections sub-area's projectors. */
export const siteConnectionsProjectors: readonly Projector[] = []
