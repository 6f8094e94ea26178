import type { AnyRpc } from '../../registry.js'

/** The ranks methods. */
export const ranksRpcs: readonly AnyRpc[] = []
