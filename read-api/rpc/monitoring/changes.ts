import type { AnyRpc } from '../../registry.js'

/** The changes sub-area's methods. */
export const siteChangesRpcs: readonly AnyRpc[] = []
