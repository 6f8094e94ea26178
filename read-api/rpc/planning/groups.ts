import type { AnyRpc } from '../../registry.js'

/** The client groups sub-area's methods. */
export const clientGroupsRpcs: readonly AnyRpc[] = []
