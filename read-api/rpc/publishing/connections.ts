import type { AnyRpc } from '../../registry.js'

/** The site connections sub-area's methods. */
export const siteConnectionsRpcs: readonly AnyRpc[] = []
