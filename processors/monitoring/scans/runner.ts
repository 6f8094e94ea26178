import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { claimableScans } from '../../../projections/monitoring/scans/queries.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'
import { coolDownAfterFailures } from './failures.js'
import { runSiteScan, type ClaimableScan, type ScanRunDeps } from './run-scan.js'

/**
 * How long a take holds a scan without a batch: three fetch deadlines (a batch waits on fetches in flight), within
 * 5 s and 2 min. A worker that stopped (a crash, kill -9) is noticed that long after its last batch.
 */
export function scanLeaseMsFor(timeoutMs: number): number {
  return Math.min(120_000, Math.max(5_000, 3 * timeoutMs))
}

/**
 * The scan runner: looks for open crawl and render scans in site_scans (queued ones, and running ones whose
 * lease ran out) every SITE_SCAN_POLL_MS, or at once when woken (a scan was queued, or one it ran finished),
 * and runs up to SITE_SCAN_CONCURRENCY of them. Which worker runs a scan is decided in the scan's stream (the
 * take is an event appended at the stream's revision), so any number of processes may run a runner: a scan is
 * held by one at a time, and a killed one's scans are resumed by the others. The public sandbox's scans are
 * fiction its seeder writes: never taken.
 */
export class ScanRunner implements Processor {
  readonly name = 'monitoring-scan-runner'
  private readonly runDeps: ScanRunDeps
  private readonly inHand = new Map<number, Promise<void>>()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private woken = false

  constructor(private readonly deps: ProcessorDeps) {
    const leaseMs = scanLeaseMsFor(deps.monitoring.timeoutMs)
    this.runDeps = {
      processor: deps,
      write: deps.write,
      read: deps.read,
      log: deps.log,
      leaseMs,
      heartbeatMs: Math.max(1_000, Math.floor(leaseMs / 4)),
      worker: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      onFailed: async (scan, position) => {
        try {
          await coolDownAfterFailures(deps, scan, position)
        } catch (error) {
          deps.log.warn({ err: error, client_id: scan.clientId }, 'site scans: could not set the scan_failures cooldown')
        }
      },
    }
  }

  start(): void {
    if (this.loop) return
    const controller = new AbortController()
    this.controller = controller
    this.loop = this.run(controller.signal)
  }

  async stop(): Promise<void> {
    this.controller?.abort()
    this.wakeUp?.()
    await this.loop?.catch(() => undefined)
    this.loop = undefined
    // The scans in hand stop between pages; their leases run out and the next take resumes them.
    await Promise.allSettled([...this.inHand.values()])
  }

  /** Look for work now (a scan was queued). */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.woken = false
      const free = this.deps.monitoring.scanConcurrency - this.inHand.size
      if (free > 0) {
        try {
          const sandbox = await sandboxOrgId(this.deps.store)
          const candidates = await claimableScans(this.deps.read, this.deps.write.clock(), free, [...this.inHand.keys()])
          for (const c of candidates) if (c.org_id !== sandbox) this.hold(c, signal)
        } catch (error) {
          if (!signal.aborted) this.deps.log.error({ err: error }, 'site scan runner: looking for scans failed')
        }
      }
      if (!this.woken && !signal.aborted) await this.pause(this.deps.monitoring.pollMs)
    }
  }

  private hold(scan: ClaimableScan, signal: AbortSignal): void {
    const work = runSiteScan(this.runDeps, scan, signal)
      .catch((error: unknown) => {
        // A database failure mid-scan: the lease runs out and the scan is resumed from what was recorded.
        this.deps.log.error({ err: error, site_scan_id: scan.id }, 'site scan runner: the scan stopped on an error')
        return 'stopped' as const
      })
      .then((result) => {
        this.inHand.delete(scan.id)
        // A finished scan frees a place: look again at once. A skipped one waits for the next poll.
        if (result === 'finished') this.wake()
      })
    this.inHand.set(scan.id, work)
  }

  /** Waits `ms`, or less when woken or stopped. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wakeUp = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.wakeUp = done
    })
  }
}
