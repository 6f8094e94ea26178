import pino from 'pino'
import { MAIN_GROUP, projectors } from '../../../projections/index.js'
import { rebuildReadModels } from '../../../projections/rebuild.js'
import { openSystem, type System } from '../../system.js'
import { timed } from '../stats.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { RealisticLogWriter } from './support/event-log.js'
import { collector, sampleMemory, type MemoryPeaks } from './support/memory-sampler.js'

/** Events in the log: 1,000,000, the size the target names; 10,000 with --quick (enough to run every path: npm test runs it). */
const eventsFor = (context: BenchContext) => (context.quick ? 10_000 : 1_000_000)

/**
 * Concurrent writers generating the log: enough that PostgreSQL's group commit carries the appends (each
 * append still commits on its own, with default durability).
 */
const WRITERS = 16

/**
 * Flatness: the rebuild's peak live heap (above the heap before it started, with full collections forced
 * while sampling) at N over the same at N/4. A rebuild holds two pages of events (the one being applied and
 * the one read ahead) and the rows one batch touches, so that figure does not depend on the log's length
 * (1 = flat); anything kept per event or per stream (a Set of ids, a cache) would grow with the log
 * (about 4 = linear). The same bound as export_org's.
 */
const LIVE_HEAP_RATIO_BOUND = 1.5

interface RebuildRun {
  readonly events: number
  readonly seconds: number
  readonly memory: MemoryPeaks
}

/**
 * One rebuild. `live`: samples with a full collection every 250 ms, so the heap figure is memory the rebuild
 * actually holds; those collections slow it, so its time is not reported. Otherwise it is the timed run:
 * RSS and heap sampled every 20 ms without collections, which mostly shows garbage not yet collected (V8
 * lets young and old generations fill before collecting, and keeps the pages it grew into): informational.
 */
async function measureRebuild(context: BenchContext, system: System, label: string, gc: () => void, live: boolean): Promise<RebuildRun> {
  // Both start from live memory only, not from what generating the log left for the collector.
  gc()
  const sampler = sampleMemory(live ? { collect: gc } : { everyMs: 20 })
  let run
  try {
    run = await timed(() => rebuildReadModels({ store: system.store, db: system.database.db, projectors, group: MAIN_GROUP }))
  } finally {
    sampler.stop()
  }
  const memory = sampler.stop()
  const { result: progress, seconds } = run
  const rss = (process.memoryUsage().rss / 2 ** 20).toFixed(0)
  context.log(
    live
      ? `${label} (live-heap sampling): rebuilt ${progress.eventsDone} events; peak live heap +${memory.heapGrowthMiB.toFixed(1)} MiB over the ${(memory.peakHeapMiB - memory.heapGrowthMiB).toFixed(0)} MiB before (peak RSS ${memory.peakRssMiB.toFixed(0)} MiB; ${memory.samples} samples took ${(memory.samplingMs / 1000).toFixed(1)} s of ${seconds.toFixed(1)} s)`
      : `${label}: rebuilt ${progress.eventsDone} events in ${seconds.toFixed(1)} s (${Math.round(progress.eventsDone / seconds)}/s), peak RSS ${memory.peakRssMiB.toFixed(0)} MiB (${rss} MiB after), peak heap used ${memory.peakHeapMiB.toFixed(0)} MiB`,
  )
  return { events: progress.eventsDone, seconds, memory }
}

/**
 * Full rebuild of every read model (blue/green, as `ops rebuild` does) from a realistic log. The log is
 * written straight into the event store (see support/event-log.ts), first a quarter of it, which is rebuilt
 * to measure memory at N/4, then the rest; then the whole log is rebuilt. At each size, one timed rebuild and
 * one with live-heap sampling (see measureRebuild). The live projection runner is not started: the rebuild
 * has the machine to itself.
 */
const rebuild: Scenario = {
  name: 'rebuild',
  description: 'full rebuild of all read models from 1,000,000 events of a realistic mix (10,000 with --quick)',
  // Generating a million events and rebuilding 1.25 million takes minutes: one repetition.
  repeat: 1,
  async run(context) {
    const total = eventsFor(context)
    const gc = collector()
    const database = await context.createDatabase()
    const system = await openSystem({ databaseUrl: database.url, log: pino({ level: 'silent' }) })
    try {
      let log: RealisticLogWriter | undefined = new RealisticLogWriter(system.store, { writers: WRITERS, validate: true })
      const write = async (writer: RealisticLogWriter, until: number) => {
        const before = writer.events
        const { seconds } = await timed(() => writer.writeUntil(until))
        const written = writer.events - before
        context.log(
          `rebuild: wrote ${written} events (${writer.events} in all) in ${seconds.toFixed(1)} s (${Math.round(written / seconds)}/s)`,
        )
      }

      await write(log, total / 4)
      const quarter = await measureRebuild(context, system, 'rebuild at N/4', gc, false)
      const quarterLive = await measureRebuild(context, system, 'rebuild at N/4', gc, true)
      await write(log, total)
      const written = log.events
      const types = [...log.counts].sort((a, b) => b[1] - a[1]).map(([type, n]) => `${type} ${((100 * n) / written).toFixed(1)}%`)
      context.log(`rebuild: ${written} events in ${log.appends} appends: ${types.join(', ')}`)
      // The writer's simulation state grows with the log; it is not the rebuild's, so it goes before measuring.
      log = undefined
      const full = await measureRebuild(context, system, 'rebuild at N', gc, false)
      const fullLive = await measureRebuild(context, system, 'rebuild at N', gc, true)

      return [
        { metric: 'events', value: full.events, unit: 'events' },
        { metric: 'events/s', value: full.events / full.seconds, unit: 'events/s', target: { op: '>=', value: 25_000 }, better: 'higher' },
        { metric: 'seconds', value: full.seconds, unit: 's', better: 'lower' },
        { metric: 'events/s at N/4', value: quarter.events / quarter.seconds, unit: 'events/s', better: 'higher' },
        // Raw peak RSS of the timed runs: informational (mostly garbage not yet collected; see measureRebuild).
        { metric: 'peak RSS at N/4', value: quarter.memory.peakRssMiB, unit: 'MiB', better: 'lower' },
        { metric: 'peak RSS at N', value: full.memory.peakRssMiB, unit: 'MiB', better: 'lower' },
        { metric: 'peak RSS growth N/4 to N', value: full.memory.peakRssMiB - quarter.memory.peakRssMiB, unit: 'MiB', better: 'lower' },
        { metric: 'peak live heap growth at N/4', value: quarterLive.memory.heapGrowthMiB, unit: 'MiB', better: 'lower' },
        { metric: 'peak live heap growth at N', value: fullLive.memory.heapGrowthMiB, unit: 'MiB', better: 'lower' },
        {
          metric: 'peak live heap, N ÷ N/4',
          value: fullLive.memory.heapGrowthMiB / Math.max(quarterLive.memory.heapGrowthMiB, 1),
          unit: '×',
          target: { op: '<=', value: LIVE_HEAP_RATIO_BOUND },
          better: 'lower',
        },
      ] satisfies Figure[]
    } finally {
      await system.close()
    }
  },
}

export const rebuildScenarios: readonly Scenario[] = [rebuild]
