import type { Processor } from '../../processors/runtime.js'
import { sandboxResetDue } from '../../domain/sandbox/policy.js'
import { resetSandboxIfDue, type SandboxDeps } from './seed.js'
import { sleep } from '../../commands/sleep.js'

/** Operator settings (SANDBOX_ENABLED, SANDBOX_RESET_INTERVAL_HOURS). */
export interface SandboxSettings {
  readonly enabled: boolean
  /** Hours between resets; 0 disables the schedule (the sandbox is still seeded once). */
  readonly resetIntervalHours: number
}

/** How often the schedule looks whether a reset is due (a reset itself is decided from the log). */
const CHECK_INTERVAL_MS = 10 * 60 * 1000
/** After a failure, try again sooner. */
const RETRY_MS = 60 * 1000

/**
 * The processors role's sandbox keeper: on start, seeds the sandbox if it was never seeded (the first
 * start); then resets it whenever the last seed is older than the interval. The due time comes from the
 * log (SandboxSeeded), not from this process, so restarts and several processors agree.
 */
export function sandboxProcessor(deps: SandboxDeps, settings: SandboxSettings): Processor {
  let controller: AbortController | undefined
  let loop: Promise<void> | undefined
  return {
    name: 'sandbox',
    start() {
      if (loop || !settings.enabled) return
      const c = new AbortController()
      controller = c
      loop = (async () => {
        while (!c.signal.aborted) {
          let wait = CHECK_INTERVAL_MS
          try {
            const outcome = await resetSandboxIfDue(deps, (last) => sandboxResetDue(last, deps.write.clock(), settings.resetIntervalHours))
            if (outcome)
              deps.log.info({ orgId: outcome.orgId, clientId: outcome.clientId }, outcome.created ? 'sandbox created' : 'sandbox reset')
          } catch (error) {
            if (c.signal.aborted) return
            deps.log.error({ err: error }, 'sandbox reset failed; trying again')
            wait = RETRY_MS
          }
          await sleep(wait, c.signal)
        }
      })()
    },
    async stop() {
      controller?.abort()
      await loop?.catch(() => {})
      loop = undefined
    },
  }
}
