import { aeoProcessors } from './aeo/index.js'
import { exportExpiryProcessor } from './exports/expiry.js'
import { jobProcessors } from './jobs/index.js'
import type { Processor, ProcessorDeps } from './runtime.js'
import { webhookProcessors } from './webhooks/index.js'
import { searchProcessors } from './search/index.js'
import { monitoringProcessors } from './monitoring/index.js'
import { planningProcessors } from './planning/index.js'
import { publishingProcessors } from './publishing/index.js'
import { contentProcessors } from './content/index.js'

/** Every processor the processors role runs. */
export function createProcessors(deps: ProcessorDeps): Processor[] {
  return [
    ...aeoProcessors(deps),
    ...jobProcessors(deps),
    ...webhookProcessors(deps),
    exportExpiryProcessor(deps),
    ...searchProcessors(deps),
    ...monitoringProcessors(deps),
    ...planningProcessors(deps),
    ...publishingProcessors(deps),
    ...contentProcessors(deps),
  ]
}
