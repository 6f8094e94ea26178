import type { AnyRpc } from '../../registry.js'

/** The intent methods. */
export const intentRpcs: readonly AnyRpc[] = []
