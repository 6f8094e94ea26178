import { periodicProcessor } from '../../periodic.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { subscriptionProcessor } from '../../subscription.js'
import { scanRunner } from './runner.js'
import { queueDueScans } from './scheduler.js'

/** The checkpoint of the subscription that wakes the runner when a scan is queued. */
export const SITE_SCAN_WAKER = 'monitoring_site_scan_waker'

/**
 * The scans sub-area's processors: the cadence scheduler (every SITE_SCAN_POLL_MS), the runner, and a
 * subscription to SiteScanQueued that wakes the runner at once, so start_site_scan does not wait for a poll.
 */
export function scansProcessors(deps: ProcessorDeps): Processor[] {
  const runner = scanRunner(deps)
  return [
    periodicProcessor(
      'monitoring-scan-scheduler',
      deps.monitoring.pollMs,
      async () => {
        await queueDueScans(deps)
      },
      (error) => deps.log.error({ err: error }, 'site scan scheduler: the pass failed; trying again next time'),
    ),
    runner,
    subscriptionProcessor({
      name: SITE_SCAN_WAKER,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(['SiteScanQueued']),
      handle: async () => runner.wake(),
    }),
  ]
}
