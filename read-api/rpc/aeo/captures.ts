import type { AnyRpc } from '../../registry.js'

/** Placeholder until the aeo captures RPCs land. */
export const aeoCapturesRpcs: AnyRpc[] = []
