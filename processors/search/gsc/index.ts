import type { Processor, ProcessorDeps } from '../../runtime.js'
import { subscriptionProcessor } from '../../subscription.js'
import { GscCaptureWorker } from './capture-worker.js'
import { googleSearchAnalytics } from './google-search-analytics.js'

/** The checkpoint of the subscription that wakes the capture worker when a capture is queued. */
export const GSC_CAPTURE_WAKER = 'search_gsc_capture_waker'
/** How long the waker waits for the read models to show a queued capture before it wakes the worker anyway. */
const READ_MODEL_WAIT_MS = 5_000

/**
 * The Search Console processors: the capture worker (weekly cadence, captures, retries), reading through
 * Google's client, and a subscription to GscCaptureQueued that wakes it once the read models show the
 * capture, so run_gsc_capture does not wait for the next poll.
 */
export function gscProcessors(deps: ProcessorDeps): Processor[] {
  const connect = googleSearchAnalytics({
    baseUrl: deps.search.gsc.baseUrl,
    tokenUrl: deps.search.gsc.tokenUrl,
    timeoutMs: deps.search.timeoutMs,
  })
  const worker = new GscCaptureWorker(deps, connect)
  return [
    worker,
    subscriptionProcessor({
      name: GSC_CAPTURE_WAKER,
      store: deps.store,
      db: deps.db,
      log: deps.log,
      types: new Set(['GscCaptureQueued']),
      handle: async (event) => {
        await deps.watermark.waitFor(event.position, READ_MODEL_WAIT_MS)
        worker.wake()
      },
    }),
  ]
}
