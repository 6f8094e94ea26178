import type { AnyRpc } from '../../registry.js'

/** The metrics methods. */
export const keywordMetricsRpcs: readonly AnyRpc[] = []
