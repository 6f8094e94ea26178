import type { AnyRpc } from '../../registry.js'

/** The renders sub-area's methods. */
export const rendersRpcs: readonly AnyRpc[] = []
