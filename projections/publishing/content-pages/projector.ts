import type { Projector } from '../../projector.js'

/** The content pages and Elementor pages sub-area's projectors. */
export const contentPagesProjectors: readonly Projector[] = []
