import type { AnyRpc } from '../../registry.js'

/** The section templates, the template catalog and template pages sub-area's methods. */
export const templatesRpcs: readonly AnyRpc[] = []
