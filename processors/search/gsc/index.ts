import type { Processor, ProcessorDeps } from '../../runtime.js'
import { GscCaptureWorker } from './capture-worker.js'
import { googleSearchAnalytics } from './google-search-analytics.js'

/** The Search Console processors: the capture worker (weekly cadence, captures, retries), reading through Google's client. */
export function gscProcessors(deps: ProcessorDeps): Processor[] {
  const connect = googleSearchAnalytics({
    baseUrl: deps.search.gsc.baseUrl,
    tokenUrl: deps.search.gsc.tokenUrl,
    timeoutMs: deps.search.timeoutMs,
  })
  return [new GscCaptureWorker(deps, connect)]
}
