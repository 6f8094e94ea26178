import type { AnyRpc } from '../../registry.js'

/** Placeholder until the aeo runs RPCs land. */
export const aeoRunsRpcs: AnyRpc[] = []
