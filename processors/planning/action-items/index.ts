import type { Processor, ProcessorDeps } from '../../runtime.js'

/** The action items sub-area's processors. */
export function actionItemsProcessors(_deps: ProcessorDeps): Processor[] {
  return []
}
