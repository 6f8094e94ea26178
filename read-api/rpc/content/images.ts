import type { AnyRpc } from '../../registry.js'

/** The images sub-area's methods. */
export const imagesRpcs: readonly AnyRpc[] = []
