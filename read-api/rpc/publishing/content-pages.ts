import type { AnyRpc } from '../../registry.js'

/** The content pages and Elementor pages sub-area's methods. */
export const contentPagesRpcs: readonly AnyRpc[] = []
