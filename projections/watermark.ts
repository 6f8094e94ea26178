import type { Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import type { EventStore, Position } from '../commands/event-store/port.js'
import { readCheckpoint } from './checkpoint.js'

const POLL_MS = 10

/**
 * While a runner in this process has announced a checkpoint this recently, it is the one moving the
 * checkpoint (one runner per group across processes), so polling the row could only tell the waiters what
 * the runner tells them anyway. Longer than a live batch takes, short enough that a waiter notices within
 * it when the group has moved to another process's runner.
 */
const LOCAL_RUNNER_FRESH_MS = 250

/**
 * Read-your-writes: a write RPC waits until the projections have reached the position its events were
 * appended at. A runner in this process announces each checkpoint at once; otherwise (API-only
 * processes, or this process's runner waiting for the group lock another holds) the checkpoint row is
 * polled, only while someone is waiting.
 */
export class ProjectionWatermark {
  readonly #db: Kysely<WorkTables>
  readonly #store: EventStore
  readonly #schema: string
  readonly #group: string
  #known: Position | null = null
  readonly #waiters = new Set<() => void>()
  #polling = false
  /** performance.now() of the last advance() by a runner in this process. */
  #localAdvanceAt = Number.NEGATIVE_INFINITY
  readonly #readCheckpoint: () => Promise<Position | null>

  constructor(options: {
    db: Kysely<WorkTables>
    store: EventStore
    schema: string
    group: string
    readCheckpoint?: () => Promise<Position | null>
  }) {
    this.#db = options.db
    this.#store = options.store
    this.#schema = options.schema
    this.#group = options.group
    this.#readCheckpoint = options.readCheckpoint ?? (() => readCheckpoint(this.#db, this.#schema, this.#group))
  }

  /** Called by a runner in this process after it committed a checkpoint. */
  advance(position: Position): void {
    this.#localAdvanceAt = performance.now()
    this.#move(position)
  }

  #move(position: Position): void {
    // Waiters wake only on progress, so a poll that finds the same checkpoint does not spin them.
    if (this.#known !== null && this.#store.comparePositions(position, this.#known) <= 0) return
    this.#known = position
    for (const wake of this.#waiters) wake()
  }

  #reached(target: Position): boolean {
    return this.#known !== null && this.#store.comparePositions(this.#known, target) >= 0
  }

  /** Resolves true once the projections reached `target`, false after `timeoutMs`. Never throws. */
  async waitFor(target: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs
    while (!this.#reached(target)) {
      const left = deadline - Date.now()
      if (left <= 0) return false
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          this.#waiters.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, left)
        // Registered before polling starts, so the poller sees a waiter and keeps going until none is left.
        this.#waiters.add(wake)
        this.#startPolling()
      })
    }
    return true
  }

  #startPolling(): void {
    if (this.#polling) return
    this.#polling = true
    void (async () => {
      try {
        // Polls only while someone waits; a local runner's advance() usually wakes them first.
        do {
          if (performance.now() - this.#localAdvanceAt >= LOCAL_RUNNER_FRESH_MS) {
            const position = await this.#readCheckpoint().catch(() => null)
            if (position !== null) this.#move(position)
          }
          if (this.#waiters.size > 0) await new Promise((r) => setTimeout(r, POLL_MS))
        } while (this.#waiters.size > 0)
      } finally {
        this.#polling = false
      }
    })()
  }
}
