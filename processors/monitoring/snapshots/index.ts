import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The snapshots sub-area's processors. */
export function snapshotsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
