import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import { claimableRankChecks } from '../../../projections/search/rank-checks/queries.js'
import type { Processor, ProcessorDeps } from '../../runtime.js'
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
 * to MAX_CHECKS_IN_HAND of them. Which worker runs a check is decided in the client's checks stream (the
 * take is an event appended at the stream's revision), so any number of processes may run a runner: each
 * check is held by one at a time, and a crashed one's checks are resumed by the others.
 */
export class RankCheckRunner implements Processor {
  readonly name = 'search-rank-check-runner'
  private readonly checkDeps: CheckRunDeps
  private readonly inHand = new Map<number, Promise<void>>()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private woken = false

  constructor(
    private readonly deps: ProcessorDeps,
    options: RunnerOptions,
  ) {
    const s = deps.search
    const leaseMs = leaseMsFor(s.timeoutMs)
    const policy: RetryPolicy = {
      maxAttempts: s.maxAttempts,
      backoffBaseMs: s.backoffBaseMs,
      ...(options.random ? { random: options.random } : {}),
    }
    this.checkDeps = {
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
    // The checks in hand stop between searches and release their leases (each search is bounded by its timeout).
    await Promise.allSettled([...this.inHand.values()])
  }

  /** Look for work now (a check was queued). */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.woken = false
      const free = MAX_CHECKS_IN_HAND - this.inHand.size
      if (free > 0) {
        try {
          const candidates = await claimableRankChecks(this.deps.read, this.deps.write.clock(), free, [...this.inHand.keys()])
          for (const c of candidates) this.hold(c.id, c.client_id, signal)
        } catch (error) {
          if (!signal.aborted) this.deps.log.error({ err: error }, 'rank check runner: looking for checks failed')
        }
      }
      if (!this.woken && !signal.aborted) await this.pause(this.deps.search.pollMs)
    }
  }

  private hold(checkId: number, clientId: number, signal: AbortSignal): void {
    const work = runRankCheck(this.checkDeps, { id: checkId, clientId }, signal)
      .catch((error: unknown) => {
        // A database failure mid-check: the lease runs out and the check is resumed from what was recorded.
        this.deps.log.error({ err: error, rank_check_id: checkId }, 'rank check runner: the check stopped on an error')
        return 'stopped' as const
      })
      .then((result) => {
        this.inHand.delete(checkId)
        // A finished check frees a place: look again at once. A skipped one (another worker has it, or the read
        // models still show a check that is over) waits for the next poll rather than finding it again at once.
        if (result === 'finished') this.wake()
      })
    this.inHand.set(checkId, work)
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
