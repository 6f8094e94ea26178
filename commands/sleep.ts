/**
 * Waits `ms`, or less: until `signal` aborts, or until the `wake` handed to `onWake` is called. Never rejects,
 * and leaves no listener behind whichever comes first. Here, beside the other infrastructure the layers above
 * share (advisory-lock.ts, network/), so the projection runner and the processors use one. Their loops sleep on
 * one long-lived signal each; a loop that added an abort listener per pass and removed it only on abort grew one listener per pass,
 * which Node reports as a MaxListenersExceededWarning after the eleventh (and which held every pass's closure
 * until shutdown).
 */
export function sleep(ms: number, signal: AbortSignal, onWake?: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    onWake?.(done)
  })
}
