import type { AnyRpc } from '../../registry.js'

/** The associations methods. */
export const associationsRpcs: readonly AnyRpc[] = []
