import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { claimableScans } from '../../../projections/monitoring/scans/queries.js'
import { ClaimingRunner } from '../../claiming-runner.js'
import type { ProcessorDeps } from '../../runtime.js'
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
 * and runs up to SITE_SCAN_CONCURRENCY of them (processors/claiming-runner.ts). Which worker runs a scan is
 * decided in the scan's stream, so a killed worker's scans are resumed by the others; the scans in hand stop
 * between pages at shutdown and the next take resumes them. The public sandbox's scans are fiction its
 * seeder writes: never taken.
 */
export function scanRunner(deps: ProcessorDeps): ClaimingRunner<ClaimableScan> {
  const leaseMs = scanLeaseMsFor(deps.monitoring.timeoutMs)
  const runDeps: ScanRunDeps = {
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
  return new ClaimingRunner(deps, {
    name: 'monitoring-scan-runner',
    concurrency: deps.monitoring.scanConcurrency,
    pollMs: deps.monitoring.pollMs,
    async findWork(free, inHand) {
      const sandbox = await sandboxOrgId(deps.store)
      const candidates = await claimableScans(deps.read, deps.write.clock(), free, inHand)
      return candidates.filter((c) => c.org_id !== sandbox)
    },
    run: (scan, signal) => runSiteScan(runDeps, scan, signal),
  })
}
