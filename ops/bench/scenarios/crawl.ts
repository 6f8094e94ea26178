import { systemResolver } from '../../../commands/webhooks.js'
import { parseAllowList } from '../../../domain/webhooks/url-policy.js'
import { crawl as crawlSite } from '../../../processors/monitoring/scans/crawler/crawl.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../../processors/monitoring/settings.js'
import { sql } from 'kysely'
import { LIVE_SCHEMA } from '../../../migrations/read-models/index.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { openCpuWindow } from './support/cpu.js'
import { collector, sampleMemory } from './support/memory-sampler.js'
import { startService } from './support/service.js'
import { nextMessage, startThread } from './support/thread.js'

/** The live heap may grow by at most this much from a quarter of the pages to all of them: no page kept. */
const LIVE_HEAP_GROWTH_BOUND_MIB = 32
/** Requests in flight to the site at once (SITE_CRAWL_HOST_CONCURRENCY; the default is a polite 2). */
const HOST_CONCURRENCY = 4

/** How often the scan's progress is read while it runs. */
const POLL_MS = 200

const mib = (bytes: number) => bytes / 2 ** 20

/** The crawl's settings in both parts: the local site allowed, no politeness delay, every page in one scan. */
function crawlSettings(pages: number) {
  return {
    ...DEFAULT_MONITORING_SETTINGS,
    allowList: parseAllowList('127.0.0.1')!,
    resolve: systemResolver,
    maxPages: pages,
    delayMs: 0,
    hostConcurrency: HOST_CONCURRENCY,
    pollMs: POLL_MS,
  }
}

/**
 * The engine and extraction alone: every page of the site fetched, decoded and extracted into a PageState, as
 * a scan does, with nothing recorded. The floor under the scan's figure.
 */
async function crawlEngineAlone(context: BenchContext, url: string, pages: number): Promise<Figure[]> {
  let seen = 0
  const cpu = await openCpuWindow(context.serverUrl)
  const started = performance.now()
  for await (const result of crawlSite({ startUrl: url, seeds: [], settings: crawlSettings(pages) })) {
    if (result.kind === 'page') seen++
  }
  const seconds = (performance.now() - started) / 1000
  const { nodeMs } = await cpu.stop()
  context.log(
    `crawl: the engine alone (fetch, decode, extract, nothing recorded): ${seen} pages in ${seconds.toFixed(1)} s, ` +
      `${Math.round(seen / seconds)} pages/s; CPU ${nodeMs === null ? '?' : (nodeMs / seen).toFixed(2)} ms a page`,
  )
  return [
    { metric: 'engine alone pages/s', value: seen / seconds, unit: 'pages/s', better: 'higher' },
    ...(nodeMs === null ? [] : [{ metric: 'engine alone CPU per page', value: nodeMs / seen, unit: 'ms', better: 'lower' as const }]),
  ]
}

interface Session {
  status: string
  progress: { pages_fetched: number; pages_recorded: number; pages_failed: number }
  error: { code: string; message: string } | null
}

/**
 * `crawl`: a site scan end to end on a local 10,000-page site (200 with --quick), served from a worker thread
 * (support/tree-site.ts: a tree of article pages, ~450 words each, every page in the sitemap). start_site_scan
 * over HTTP, then the scan processor in the same process: robots.txt, the sitemap, every page fetched through
 * the policy-checked connection and extracted, each page's first snapshot recorded (recordCrawledPages: the
 * page added, PageSnapshotRecorded with its state, the scan's batch events), until the session completes.
 * Pages per second are pages parsed and snapshotted; memory is the process's live heap (after a full
 * collection) when a quarter of the pages are fetched and at the end; the engine alone on the same site is
 * measured first, as the floor.
 */
export const crawlScenario: Scenario = {
  name: 'crawl',
  description: 'a site scan of a local 10,000-page site through start_site_scan: pages parsed and snapshotted per second, memory flat',
  repeat: 1,
  async run(context) {
    const pages = context.quick ? 200 : 10_000
    const worker = startThread(new URL('./support/tree-site-worker.ts', import.meta.url), { pages })
    const gc = collector()
    try {
      const url = await nextMessage<string>(worker)
      const engine = await crawlEngineAlone(context, url, pages)
      const service = await startService(context, { monitoring: crawlSettings(pages), processors: true })
      try {
        const clientId = await service.call<number>(
          'add_client',
          { client: { name: 'Bench Crawl Client', website_url: url, slug: 'bench-crawl' } },
          service.orgKey,
        )
        const quarter = Math.ceil(pages / 4)
        const heapAt: number[] = []
        gc()
        const rss = sampleMemory({ everyMs: 250 })
        const cpu = await openCpuWindow(context.serverUrl)
        const started = performance.now()
        const { session_id } = await service.call<{ session_id: number }>('start_site_scan', { client_id: clientId }, service.orgKey)
        let session: Session
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS))
          session = await service.call<Session>('get_scan_session', { session_id }, service.orgKey)
          if (heapAt.length === 0 && session.progress.pages_fetched >= quarter) {
            gc()
            heapAt.push(process.memoryUsage().heapUsed)
          }
          if (session.status !== 'queued' && session.status !== 'running') break
        }
        const seconds = (performance.now() - started) / 1000
        const { nodeMs, postgresMs } = await cpu.stop()
        const memory = rss.stop()
        gc()
        heapAt.push(process.memoryUsage().heapUsed)
        if (session.status !== 'completed') throw new Error(`crawl: the scan ended ${session.status}: ${JSON.stringify(session.error)}`)
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from ${sql.id(LIVE_SCHEMA, 'page_snapshots')} where client_id = ${clientId} and source = 'crawl'
        `.execute(service.system.database.db)
        const snapshots = rows[0]!.n
        const recorded = session.progress.pages_recorded
        const growth = heapAt.length === 2 ? mib(heapAt[1]! - heapAt[0]!) : Number.NaN
        context.log(
          `crawl: start_site_scan to completed: ${recorded} pages parsed and snapshotted in ${seconds.toFixed(1)} s ` +
            `(${Math.round(recorded / seconds)} pages/s; ${snapshots} snapshots projected, ${session.progress.pages_failed} failed); ` +
            `CPU per page ${nodeMs === null ? '?' : (nodeMs / recorded).toFixed(2)} ms service, ` +
            `${postgresMs === null ? '?' : (postgresMs / recorded).toFixed(2)} ms PostgreSQL; ` +
            `live heap ${mib(heapAt[0] ?? Number.NaN).toFixed(0)} MiB at N/4, ${mib(heapAt[1] ?? heapAt[0]!).toFixed(0)} MiB at N; ` +
            `peak RSS ${memory.peakRssMiB.toFixed(0)} MiB`,
        )
        return [
          { metric: 'pages/s', value: recorded / seconds, unit: 'pages/s', target: { op: '>=', value: 100 }, better: 'higher' },
          { metric: 'seconds', value: seconds, unit: 's', better: 'lower' },
          {
            metric: 'pages not snapshotted',
            value: pages - snapshots,
            unit: 'pages',
            target: { op: '<=', value: 0 },
            better: 'lower',
          },
          {
            metric: 'live heap growth N/4 to N',
            value: growth,
            unit: 'MiB',
            target: { op: '<=', value: LIVE_HEAP_GROWTH_BOUND_MIB },
            better: 'lower',
          },
          { metric: 'peak RSS', value: memory.peakRssMiB, unit: 'MiB', better: 'lower' },
          ...(nodeMs === null ? [] : [{ metric: 'service CPU per page', value: nodeMs / recorded, unit: 'ms', better: 'lower' as const }]),
          ...(postgresMs === null
            ? []
            : [{ metric: 'PostgreSQL CPU per page', value: postgresMs / recorded, unit: 'ms', better: 'lower' as const }]),
          ...engine,
        ]
      } finally {
        await service.close()
      }
    } finally {
      worker.postMessage('close')
      await worker.terminate()
    }
  },
}

export const crawlScenarios: readonly Scenario[] = [crawlScenario]
