/**
 * Permits for provider calls in flight, shared by every check this process runs: RANK_CHECK_CONCURRENCY
 * bounds the searches at once however many checks are running.
 */
export class Semaphore {
  #free: number
  readonly #waiting: { resolve: (granted: boolean) => void; signal: AbortSignal; onAbort: () => void }[] = []

  constructor(permits: number) {
    this.#free = Math.max(1, permits)
  }

  /** Resolves true with a permit, or false (no permit) when `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false)
    if (this.#free > 0) {
      this.#free--
      return Promise.resolve(true)
    }
    return new Promise<boolean>((resolve) => {
      const entry = {
        resolve,
        signal,
        onAbort: () => {
          const at = this.#waiting.indexOf(entry)
          if (at >= 0) this.#waiting.splice(at, 1)
          resolve(false)
        },
      }
      signal.addEventListener('abort', entry.onAbort, { once: true })
      this.#waiting.push(entry)
    })
  }

  release(): void {
    const next = this.#waiting.shift()
    if (next) {
      next.signal.removeEventListener('abort', next.onAbort)
      next.resolve(true)
    } else this.#free++
  }
}
