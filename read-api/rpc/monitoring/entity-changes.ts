import type { AnyRpc } from '../../registry.js'

/** The entity-changes sub-area's methods. */
export const entityChangesRpcs: readonly AnyRpc[] = []
