import type { AnyRpc } from '../../registry.js'

/** The cooldowns sub-area's methods. */
export const cooldownsRpcs: readonly AnyRpc[] = []
