import type { AnyRpc } from '../../registry.js'

/** The push failures sub-area's methods. */
export const pushFailuresRpcs: readonly AnyRpc[] = []
