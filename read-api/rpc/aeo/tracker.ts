import type { AnyRpc } from '../../registry.js'

/** Placeholder until the aeo tracker RPCs land. */
export const aeoTrackerRpcs: AnyRpc[] = []
