import type { AnyRpc } from '../../registry.js'

/** The blog sub-area's methods. */
export const blogRpcs: readonly AnyRpc[] = []
