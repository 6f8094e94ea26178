import type { AnyRpc } from '../../registry.js'

/** The architecture sub-area's methods. */
export const architectureRpcs: readonly AnyRpc[] = []
