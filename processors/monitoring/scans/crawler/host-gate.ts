/**
 * Politeness toward one host: at most `concurrency` requests in flight, and at least `delayMs` between the
 * starts of two requests (SITE_CRAWL_DELAY_MS, raised by robots.txt's Crawl-delay). Waiters are served in
 * order; aborting the signal rejects every waiter, so a stopped crawl leaves nothing pending.
 */
export class HostGate {
  #active = 0
  #nextStart = 0
  #timer: NodeJS.Timeout | null = null
  readonly #waiters: { start: () => void; fail: (reason: unknown) => void }[] = []

  constructor(
    readonly concurrency: number,
    readonly delayMs: number,
    signal: AbortSignal,
  ) {
    signal.addEventListener(
      'abort',
      () => {
        if (this.#timer !== null) clearTimeout(this.#timer)
        for (const waiter of this.#waiters.splice(0)) waiter.fail(signal.reason)
      },
      { once: true },
    )
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start, fail) => {
      this.#waiters.push({ start, fail })
      this.#pump()
    })
    try {
      return await task()
    } finally {
      this.#active--
      this.#pump()
    }
  }

  #pump(): void {
    if (this.#timer !== null) return
    while (this.#waiters.length > 0 && this.#active < Math.max(1, this.concurrency)) {
      const wait = this.#nextStart - Date.now()
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = null
          this.#pump()
        }, wait)
        return
      }
      this.#active++
      this.#nextStart = Date.now() + this.delayMs
      this.#waiters.shift()!.start()
    }
  }
}
