import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * A function that runs a full garbage collection. `--expose-gc` is turned on at run time (the bench runs
 * without node flags); the function comes from a fresh context, where the flag now defines `gc`.
 */
export function collector(): () => void {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as (() => void) | undefined
  return () => gc?.()
}

/** Peaks over a sampled span, in MiB: absolute, and above the baseline taken when sampling started. */
export interface MemoryPeaks {
  readonly peakRssMiB: number
  readonly peakHeapMiB: number
  readonly rssGrowthMiB: number
  readonly heapGrowthMiB: number
  /** Samples taken, and the time they took (forced collections included), in ms. */
  readonly samples: number
  readonly samplingMs: number
}

export interface SampleOptions {
  /**
   * Forces a full collection before each sample, so the heap figure is what the process actually holds (its
   * live set) rather than garbage the collector has not got round to yet. That slows the work being
   * measured, so timed runs sample without it (their heap figure is then mostly garbage; read RSS there).
   */
  readonly collect?: () => void
  /** Shortest sampling interval; the default suits each mode (collections every 10 ms would dominate the work). */
  readonly everyMs?: number
}

/**
 * Samples this process's heap used and RSS until stopped. The baseline is taken at the start, after a full
 * collection when `collect` is given, so that garbage left by earlier work (seeding, writing a log) is
 * not counted as the measured work's.
 */
export function sampleMemory(options: SampleOptions = {}): { stop(): MemoryPeaks } {
  const { collect } = options
  collect?.()
  const base = process.memoryUsage()
  let peakHeap = base.heapUsed
  let peakRss = base.rss
  let samples = 0
  let samplingMs = 0
  const sample = () => {
    const started = performance.now()
    collect?.()
    const m = process.memoryUsage()
    peakHeap = Math.max(peakHeap, m.heapUsed)
    peakRss = Math.max(peakRss, m.rss)
    samples++
    const spent = performance.now() - started
    samplingMs += spent
    return spent
  }
  const interval = options.everyMs ?? (collect ? 250 : 10)
  let timer: NodeJS.Timeout | undefined
  const tick = () => {
    const spent = sample()
    // A forced collection takes longer on a loaded machine (at load 10, a rebuild sampled every 250 ms ran
    // 6.7× slower than unsampled: collections back to back). Waiting at least 4× the last sample's time keeps
    // collecting under a fifth of the measured work's time however slow it gets.
    timer = setTimeout(tick, Math.max(interval, 4 * spent))
  }
  timer = setTimeout(tick, interval)
  let peaks: MemoryPeaks | undefined
  return {
    stop() {
      if (peaks) return peaks
      clearTimeout(timer)
      sample()
      const mib = (bytes: number) => bytes / 2 ** 20
      peaks = {
        peakRssMiB: mib(peakRss),
        peakHeapMiB: mib(peakHeap),
        rssGrowthMiB: mib(peakRss - base.rss),
        heapGrowthMiB: mib(peakHeap - base.heapUsed),
        samples,
        samplingMs,
      }
      return peaks
    },
  }
}
