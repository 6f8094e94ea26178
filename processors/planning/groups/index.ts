import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The client groups sub-area's processors. */
export function clientGroupsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
