import type { Processor, ProcessorDeps } from '../runtime.js'
import { fanOutProcessor } from './fan-out.js'
import { WebhookWorker } from './worker.js'

/** The webhook dispatcher: the fan-out process manager and the delivery worker (none without webhook settings). */
export function webhookProcessors(deps: ProcessorDeps): Processor[] {
  const settings = deps.webhooks
  if (!settings) return []
  const worker = new WebhookWorker(deps, settings)
  return [fanOutProcessor(deps, settings, () => worker.nudge()), worker]
}
