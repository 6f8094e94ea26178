import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { claimableRankChecks } from '../../../projections/search/rank-checks/queries.js'
import { ClaimingRunner } from '../../claiming-runner.js'
import type { ProcessorDeps } from '../../runtime.js'
import { sandboxOrgId } from '../../sandbox-fiction.js'
import type { RetryPolicy } from './call-with-retries.js'
import type { RankProvider } from './providers/port.js'
import { runRankCheck, type CheckRunDeps } from './run-check.js'
import { Semaphore } from './semaphore.js'

/** Checks one process runs at once (their searches share RANK_CHECK_CONCURRENCY permits). */
export const MAX_CHECKS_IN_HAND = 4

/**
 * How long a take holds a check without a heartbeat: twice the provider timeout, within 5 s and 2 min. A
 * worker that stopped (a crash, kill -9) is noticed that long after its last heartbeat, and its check resumed.
 */
export function leaseMsFor(timeoutMs: number): number {
  return Math.min(120_000, Math.max(5_000, 2 * timeoutMs))
}

export interface RunnerOptions {
  readonly provider: RankProvider | null
  /** The jitter's randomness (tests may fix it). */
  readonly random?: () => number
}

/**
 * The rank-check runner: looks for open checks in rank_checks (queued ones, and running ones whose lease ran
 * out) every SEARCH_POLL_MS, or at once when woken (a check was queued, or one it ran finished), and runs up
 * to MAX_CHECKS_IN_HAND of them (processors/claiming-runner.ts). Which worker runs a check is decided in the
 * client's checks stream, so any number of processes may run a runner and a crashed one's checks are resumed
 * by the others; at shutdown the checks in hand stop between searches and release their leases.
 */
export function rankCheckRunner(deps: ProcessorDeps, options: RunnerOptions): ClaimingRunner<{ id: number; client_id: number }> {
  const s = deps.search
  const leaseMs = leaseMsFor(s.timeoutMs)
  const policy: RetryPolicy = {
    maxAttempts: s.maxAttempts,
    backoffBaseMs: s.backoffBaseMs,
    ...(options.random ? { random: options.random } : {}),
  }
  const checkDeps: CheckRunDeps = {
    write: deps.write,
    read: deps.read,
    log: deps.log,
    provider: options.provider,
    slots: new Semaphore(s.rankConcurrency),
    policy,
    leaseMs,
    heartbeatMs: Math.max(1_000, Math.floor(leaseMs / 4)),
    worker: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  }
  return new ClaimingRunner(deps, {
    name: 'search-rank-check-runner',
    concurrency: MAX_CHECKS_IN_HAND,
    pollMs: s.pollMs,
    // The public sandbox's checks are fiction its seeder completes itself: never taken (as the scan runner).
    async findWork(free, inHand) {
      const sandbox = await sandboxOrgId(deps.store)
      return (await claimableRankChecks(deps.read, deps.write.clock(), free, inHand)).filter((c) => c.org_id !== sandbox)
    },
    run: (check, signal) => runRankCheck(checkDeps, { id: check.id, clientId: check.client_id }, signal),
  })
}
