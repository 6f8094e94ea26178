import type { Processor } from './runtime.js'

/**
 * A processor that runs `pass` at start and then every `intervalMs`, never two passes at once (a pass still
 * running when the next is due is not doubled); stop() waits for a pass in hand. A failed pass is logged by
 * `onError` and the next one tries again. The timer does not keep the process alive.
 */
export function periodicProcessor(
  name: string,
  intervalMs: number,
  pass: () => Promise<void>,
  onError: (error: unknown) => void,
): Processor {
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let stopped = false
  const run = () => {
    if (stopped || running) return
    running = pass()
      .catch(onError)
      .finally(() => {
        running = null
      })
  }
  return {
    name,
    start() {
      stopped = false
      run()
      timer = setInterval(run, intervalMs)
      timer.unref()
    },
    async stop() {
      stopped = true
      if (timer) clearInterval(timer)
      timer = null
      await running
    },
  }
}
