/**
 * The database outage, told once. While PostgreSQL is down every request, every projection and processor
 * loop and every pooled connection fails, each on its own schedule: logged one by one that was about 50 error
 * lines a second, which buries the one line an operator needs. The watch logs the outage when the first such
 * failure is noted, probes the database until it answers, then logs the recovery; the log wrapper
 * (outage-log.ts) hands it every warn or error line that is about an unreachable store.
 */
import type { Logger } from 'pino'
import { isStoreUnavailable } from '../commands/event-store/unavailable.js'
import { sleep } from '../commands/sleep.js'

export interface StoreOutageOptions {
  /** The undiverted logger: the outage's own two lines must not be diverted back here. */
  readonly log: Logger
  /** A cheap query that succeeds once the database answers again (`select 1`). */
  readonly probe: () => Promise<unknown>
  /** Between probes while down (default 1 s). */
  readonly probeMs?: number
}

export class StoreOutageWatch {
  readonly #options: StoreOutageOptions
  readonly #closed = new AbortController()
  #downSince: number | null = null

  constructor(options: StoreOutageOptions) {
    this.#options = options
  }

  /** Whether an outage is under way (from its first noted failure until a probe succeeds). */
  get down(): boolean {
    return this.#downSince !== null
  }

  /** Notes a failure. True when it says the store is unreachable: the caller then need not log it. Never throws. */
  note(error: unknown): boolean {
    if (!isStoreUnavailable(error)) return false
    if (this.#downSince !== null || this.#closed.signal.aborted) return true
    this.#downSince = Date.now()
    this.#options.log.error(
      { err: error },
      'the database is unavailable: requests answer 503 store_unavailable and background work waits until it is back (logged once)',
    )
    void this.#probeUntilBack()
    return true
  }

  /** Stops probing (shutdown). */
  close(): void {
    this.#closed.abort()
  }

  async #probeUntilBack(): Promise<void> {
    const signal = this.#closed.signal
    while (!signal.aborted) {
      await sleep(this.#options.probeMs ?? 1000, signal)
      if (signal.aborted) return
      try {
        await this.#options.probe()
      } catch {
        continue
      }
      const downMs = Date.now() - this.#downSince!
      this.#downSince = null
      this.#options.log.info({ down_ms: downMs }, 'the database is available again')
      return
    }
  }
}
