import type { Projector } from '../../projector.js'

/** The client groups sub-area's projectors. */
export const clientGroupsProjectors: readonly Projector[] = []
