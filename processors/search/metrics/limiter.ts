import { sleep } from '../../../commands/sleep.js'

/**
 * Spaces calls to one provider endpoint across this process: at least `minIntervalMs` apart
 * (SEARCH_PROVIDER_REQUESTS_PER_SECOND), and, when a window is given, at most `window.calls` in any
 * `window.ms` (DataForSEO allows 12 calls a minute per account to its Google Ads live endpoints). Callers
 * queue in order. Real time, not the service's clock: a test that moves the business clock does not make
 * the provider forget its window.
 */
export class CallLimiter {
  readonly #minIntervalMs: number
  readonly #window: { readonly calls: number; readonly ms: number } | null
  readonly #now: () => number
  /** Start times of the calls inside the current window, oldest first. */
  readonly #recent: number[] = []
  #last = Number.NEGATIVE_INFINITY
  #queue: Promise<void> = Promise.resolve()

  constructor(options: { minIntervalMs: number; window?: { calls: number; ms: number } }, now: () => number = Date.now) {
    this.#minIntervalMs = Math.max(0, options.minIntervalMs)
    this.#window = options.window ?? null
    this.#now = now
  }

  /** Resolves when this call may start (or at once when `signal` aborts: the caller checks it). */
  take(signal: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#wait(signal))
    this.#queue = turn
    return turn
  }

  async #wait(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const now = this.#now()
      const window = this.#window
      if (window) while (this.#recent.length > 0 && this.#recent[0]! <= now - window.ms) this.#recent.shift()
      const spacing = this.#last + this.#minIntervalMs - now
      const windowWait = window && this.#recent.length >= window.calls ? this.#recent[0]! + window.ms - now : 0
      const wait = Math.max(spacing, windowWait)
      if (wait <= 0) {
        this.#last = now
        if (window) this.#recent.push(now)
        return
      }
      await sleep(wait, signal)
    }
  }
}
