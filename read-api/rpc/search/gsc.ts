import type { AnyRpc } from '../../registry.js'

/** The gsc methods. */
export const gscRpcs: readonly AnyRpc[] = []
