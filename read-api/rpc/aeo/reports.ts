import type { AnyRpc } from '../../registry.js'

/** Placeholder until the aeo reports RPCs land. */
export const aeoReportsRpcs: AnyRpc[] = []
