import { sleep } from '../../../commands/sleep.js'

/**
 * Paces calls to one provider across this process: at most `perSecond` calls start in any second, spaced
 * evenly (each caller reserves the next free slot and waits for it). Every check and every task of this
 * process shares the provider's limiter, so many checks at once still keep to the provider's rate.
 */
export class RateLimiter {
  readonly #intervalMs: number
  #nextSlot = 0

  constructor(perSecond: number) {
    this.#intervalMs = perSecond > 0 ? 1000 / perSecond : 0
  }

  /** Resolves when the caller may make its call; rejects (AbortError) if `signal` aborts first. */
  async take(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted()
    const now = Date.now()
    const slot = Math.max(now, this.#nextSlot)
    this.#nextSlot = slot + this.#intervalMs
    if (slot > now) await sleep(slot - now, signal)
    signal.throwIfAborted()
  }
}
