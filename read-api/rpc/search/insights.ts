import type { AnyRpc } from '../../registry.js'

/** The insights methods. */
export const insightsRpcs: readonly AnyRpc[] = []
