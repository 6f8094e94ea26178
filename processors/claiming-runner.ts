import type { Processor, ProcessorDeps } from './runtime.js'

/** How one unit of work ended: finished (a place is free: look again at once) or anything else (wait for the poll). */
export type UnitOutcome = 'finished' | 'skipped' | 'stopped'

/** What a claiming runner is about: how it finds work and runs one unit. */
export interface ClaimingWork<TUnit extends { readonly id: number }> {
  /** The processor's name (and its log label). */
  readonly name: string
  /** Units held at once by this process. */
  readonly concurrency: number
  /** How long to wait between looks when nothing woke it. */
  readonly pollMs: number
  /** Up to `free` claimable units, none of `inHand`. */
  findWork(free: number, inHand: readonly number[]): Promise<readonly TUnit[]>
  /**
   * Runs one unit until it ends or `signal` aborts. Which worker holds a unit is decided in its own stream
   * (a take appended at the stream's revision), so any number of processes may run the same runner.
   */
  run(unit: TUnit, signal: AbortSignal): Promise<UnitOutcome>
}

/**
 * The loop every claiming processor shares (site scans, rank checks): look for claimable units every
 * `pollMs`, or at once when woken (work was queued, or a unit in hand finished), and run up to `concurrency`
 * of them at a time. A unit that throws (a database failure mid-run) is logged and dropped from hand; its
 * lease runs out and the next look resumes it from what was recorded. `stop` aborts the loop and waits for
 * the units in hand to stop at their next step.
 */
export class ClaimingRunner<TUnit extends { readonly id: number }> implements Processor {
  readonly name: string
  private readonly inHand = new Map<number, Promise<void>>()
  private controller: AbortController | undefined
  private loop: Promise<void> | undefined
  private wakeUp: (() => void) | undefined
  private woken = false

  constructor(
    private readonly deps: Pick<ProcessorDeps, 'log'>,
    private readonly work: ClaimingWork<TUnit>,
  ) {
    this.name = work.name
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
    await Promise.allSettled([...this.inHand.values()])
  }

  /** Look for work now. */
  wake(): void {
    this.woken = true
    this.wakeUp?.()
  }

  private async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      this.woken = false
      const free = this.work.concurrency - this.inHand.size
      if (free > 0) {
        try {
          for (const unit of await this.work.findWork(free, [...this.inHand.keys()])) this.hold(unit, signal)
        } catch (error) {
          if (!signal.aborted) this.deps.log.error({ err: error, processor: this.name }, `${this.name}: looking for work failed`)
        }
      }
      if (!this.woken && !signal.aborted) await this.pause(this.work.pollMs)
    }
  }

  private hold(unit: TUnit, signal: AbortSignal): void {
    const running = this.work
      .run(unit, signal)
      .catch((error: unknown): UnitOutcome => {
        this.deps.log.error({ err: error, processor: this.name, unit_id: unit.id }, `${this.name}: a unit stopped on an error`)
        return 'stopped'
      })
      .then((outcome) => {
        this.inHand.delete(unit.id)
        // A finished unit frees a place: look again at once. A skipped one (another worker has it, or the read
        // models still show a unit that is over) waits for the next poll rather than finding it again at once.
        if (outcome === 'finished') this.wake()
      })
    this.inHand.set(unit.id, running)
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
