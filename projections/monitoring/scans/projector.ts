import type { Projector } from '../../projector.js'

/** The scans sub-area's projectors. */
export const scansProjectors: readonly Projector[] = []
