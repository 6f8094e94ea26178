import type { AnyRpc } from '../../registry.js'

/** The surveys methods. */
export const surveysRpcs: readonly AnyRpc[] = []
