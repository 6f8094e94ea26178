import type { AnyRpc } from '../../registry.js'

/** The reference-docs sub-area's methods. */
export const referenceDocsRpcs: readonly AnyRpc[] = []
