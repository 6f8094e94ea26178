import type { AnyRpc } from '../../registry.js'

/** The compare reports sub-area's methods. */
export const compareReportsRpcs: readonly AnyRpc[] = []
