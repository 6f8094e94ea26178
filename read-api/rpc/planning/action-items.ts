import type { AnyRpc } from '../../registry.js'

/** The action items sub-area's methods. */
export const actionItemsRpcs: readonly AnyRpc[] = []
