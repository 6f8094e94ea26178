import type { Processor, ProcessorDeps } from '../runtime.js'
import { associationsProcessors } from './associations/index.js'
import { rankChecksProcessors } from './rank-checks/index.js'
import { keywordMetricsProcessors } from './metrics/index.js'
import { gscProcessors } from './gsc/index.js'
import { intentProcessors } from './intent/index.js'
import { insightsProcessors } from './insights/index.js'

/** The search area's processors. */
export function searchProcessors(deps: ProcessorDeps): Processor[] {
  return [
    ...associationsProcessors(deps),
    ...rankChecksProcessors(deps),
    ...keywordMetricsProcessors(deps),
    ...gscProcessors(deps),
    ...intentProcessors(deps),
    ...insightsProcessors(deps),
  ]
}
