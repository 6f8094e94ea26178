import type { AnyRpc } from '../../registry.js'

/** The redirects sub-area's methods. */
export const redirectsRpcs: readonly AnyRpc[] = []
