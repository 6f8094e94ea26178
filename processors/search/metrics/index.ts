import { periodicProcessor } from '../../periodic.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { dataForSeoProvider } from './dataforseo.js'
import { runKeywordMetricsPass } from './pass.js'

/**
 * The metrics processors: with DataForSEO configured (DATAFORSEO_LOGIN/PASSWORD), a pass every
 * SEARCH_POLL_MS fetches the keyword metrics that are missing, stale or asked for. Without it there is
 * nothing to fetch with: record_keyword_metrics is how numbers arrive.
 */
export function keywordMetricsProcessors(deps: ProcessorDeps): Processor[] {
  const dataforseo = deps.search.dataforseo
  if (!dataforseo) return []
  const provider = dataForSeoProvider({
    ...dataforseo,
    timeoutMs: deps.search.timeoutMs,
    requestsPerSecond: deps.search.requestsPerSecond,
  })
  let controller = new AbortController()
  const periodic = periodicProcessor(
    'keyword-metrics',
    deps.search.pollMs,
    async () => {
      const report = await runKeywordMetricsPass(deps, provider, controller.signal)
      if (report.fetches > 0) deps.log.info({ ...report }, 'keyword metrics pass')
    },
    (error) => deps.log.error({ err: error, processor: 'keyword-metrics' }, 'keyword metrics pass failed; trying again next time'),
  )
  return [
    {
      name: periodic.name,
      start() {
        if (controller.signal.aborted) controller = new AbortController()
        periodic.start()
      },
      async stop() {
        // Stops a pass between provider calls (a call in flight is abandoned; its phrases stay needed).
        controller.abort()
        await periodic.stop()
      },
    },
  ]
}
