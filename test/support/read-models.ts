import type { Position } from '../../commands/event-store/port.js'
import type { TestSystem } from './system.js'

/**
 * How long a test waits for the read models. Generous on purpose: a loaded CI machine (2 cores, a dozen test
 * files at once) may take seconds, and a wait that gives up early only turns a slow machine into a wrong answer.
 */
const WAIT_MS = 60_000

/**
 * Waits until the read models hold `position` (the position a direct command returned; null or undefined:
 * nothing was appended, nothing to wait for). Throws when they never get there, so a test never reads a
 * read model that is behind and then fails, or worse passes, on what it read.
 */
export async function readModelsAt(
  ts: Pick<TestSystem, 'system'>,
  position: Position | null | undefined,
  timeoutMs = WAIT_MS,
): Promise<void> {
  if (position === null || position === undefined) return
  if (!(await ts.system.watermark.waitFor(position, timeoutMs))) {
    throw new Error(`the read models did not reach ${String(position)} within ${timeoutMs / 1000} s`)
  }
}

/** Waits until the read models hold every event committed so far (the log's head), throwing like readModelsAt. */
export async function readModelsCaughtUp(ts: Pick<TestSystem, 'system'>, timeoutMs = WAIT_MS): Promise<void> {
  await readModelsAt(ts, await ts.system.store.headPosition(), timeoutMs)
}
