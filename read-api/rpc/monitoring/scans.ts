import type { AnyRpc } from '../../registry.js'

/** The scans sub-area's methods. */
export const scansRpcs: readonly AnyRpc[] = []
