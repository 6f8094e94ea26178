import { systemResolver } from '../../../commands/webhooks.js'
import { parseAllowList } from '../../../domain/webhooks/url-policy.js'
import { crawl as crawlSite } from '../../../processors/monitoring/scans/crawler/crawl.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../../processors/monitoring/settings.js'
import type { Figure, Scenario } from '../types.js'
import { openCpuWindow } from './support/cpu.js'
import { collector, sampleMemory } from './support/memory-sampler.js'
import { nextMessage, startThread } from './support/thread.js'

/** The live heap may grow by at most this much from a quarter of the pages to all of them: no page kept. */
const LIVE_HEAP_GROWTH_BOUND_MIB = 32
/** Requests in flight to the site at once (SITE_CRAWL_HOST_CONCURRENCY; the default is a polite 2). */
const HOST_CONCURRENCY = 4

/**
 * `crawl`: the crawl engine end to end on a local 10,000-page site (1,000 with --quick), served from a worker
 * thread (support/tree-site.ts: a tree of article pages, ~450 words each, every page in the sitemap): robots.txt,
 * the sitemap, then every page fetched through the policy-checked connection, decoded and extracted into a
 * PageState (linkedom + Readability), as a scan does. The engine and extraction alone: the scan processor
 * recording snapshots is not in it (yet). Memory: the live heap (after a full collection) at a quarter of the
 * pages and at all of them; CPU per page of the crawler's thread (the site is another thread).
 */
export const crawlScenario: Scenario = {
  name: 'crawl',
  description: 'crawl and extract a local 10,000-page site (robots.txt, sitemap, links, a PageState per page): the engine alone',
  repeat: 1,
  async run(context) {
    const pages = context.quick ? 1_000 : 10_000
    const worker = startThread(new URL('./support/tree-site-worker.ts', import.meta.url), { pages })
    const gc = collector()
    try {
      const url = await nextMessage<string>(worker)
      const settings = {
        ...DEFAULT_MONITORING_SETTINGS,
        allowList: parseAllowList('127.0.0.1')!,
        resolve: systemResolver,
        maxPages: pages,
        delayMs: 0,
        hostConcurrency: HOST_CONCURRENCY,
      }
      const heapAt: number[] = []
      let seen = 0
      let failed = 0
      let words = 0
      const quarter = Math.ceil(pages / 4)
      gc()
      const rss = sampleMemory({ everyMs: 250 })
      const cpu = await openCpuWindow(context.serverUrl)
      const started = performance.now()
      for await (const result of crawlSite({ startUrl: url, seeds: [], settings })) {
        if (result.kind === 'failed') failed++
        if (result.kind !== 'page') continue
        seen++
        words += result.state.word_count
        if (seen === quarter) {
          gc()
          heapAt.push(process.memoryUsage().heapUsed)
        }
      }
      const seconds = (performance.now() - started) / 1000
      const { nodeMs } = await cpu.stop()
      const memory = rss.stop()
      gc()
      heapAt.push(process.memoryUsage().heapUsed)
      worker.postMessage('close')
      const requests = await nextMessage<number>(worker)
      const mib = (bytes: number) => bytes / 2 ** 20
      const growth = mib(heapAt[1]! - heapAt[0]!)
      context.log(
        `crawl (engine and extraction alone, not the scan processor): ${seen} of ${pages} pages in ${seconds.toFixed(1)} s ` +
          `(${Math.round(seen / seconds)} pages/s, ${requests} requests, ${failed} failed, ${Math.round(words / Math.max(1, seen))} words a page); ` +
          `CPU ${nodeMs === null ? '?' : (nodeMs / seen).toFixed(2)} ms a page on the crawler's thread; ` +
          `live heap ${mib(heapAt[0]!).toFixed(0)} MiB at N/4, ${mib(heapAt[1]!).toFixed(0)} MiB at N; peak RSS ${memory.peakRssMiB.toFixed(0)} MiB`,
      )
      const figures: Figure[] = [
        { metric: 'pages/s', value: seen / seconds, unit: 'pages/s', target: { op: '>=', value: 200 }, better: 'higher' },
        { metric: 'seconds', value: seconds, unit: 's', better: 'lower' },
        // CPU per page tells less work from a quieter machine: the crawler's thread alone (the site is another).
        ...(nodeMs === null ? [] : [{ metric: 'CPU per page', value: nodeMs / seen, unit: 'ms', better: 'lower' as const }]),
        { metric: 'pages missed', value: pages - seen, unit: 'pages', target: { op: '<=', value: 0 }, better: 'lower' },
        {
          metric: 'live heap growth N/4 to N',
          value: growth,
          unit: 'MiB',
          target: { op: '<=', value: LIVE_HEAP_GROWTH_BOUND_MIB },
          better: 'lower',
        },
        { metric: 'peak RSS', value: memory.peakRssMiB, unit: 'MiB', better: 'lower' },
      ]
      return figures
    } finally {
      await worker.terminate()
    }
  },
}

export const crawlScenarios: readonly Scenario[] = [crawlScenario]
