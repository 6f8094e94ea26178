import type { AnyRpc } from '../../registry.js'

/** The rank-checks methods. */
export const rankChecksRpcs: readonly AnyRpc[] = []
