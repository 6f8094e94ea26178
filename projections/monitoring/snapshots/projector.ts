import type { Projector } from '../../projector.js'

/** The snapshots sub-area's projectors. */
export const snapshotsProjectors: readonly Projector[] = []
