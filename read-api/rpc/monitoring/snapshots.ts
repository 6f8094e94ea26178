import type { AnyRpc } from '../../registry.js'

/** The snapshots sub-area's methods. */
export const snapshotsRpcs: readonly AnyRpc[] = []
