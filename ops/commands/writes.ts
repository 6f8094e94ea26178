import { readWritesState, setWritesState, WRITES_REFRESH_MS, type WritesState } from '../../read-api/platform/writes-switch.js'
import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { openForOps, type OpsOptions } from './open.js'

export const WRITES_ACTIONS = ['on', 'off', 'status'] as const
export type WritesAction = (typeof WRITES_ACTIONS)[number]

function describe(state: WritesState): string {
  const since = `since ${state.changedAt.toISOString()} (by ${state.changedBy})`
  return `Writes are ${state.enabled ? 'on' : 'off'} ${since}${state.reason ? `: ${state.reason}` : ''}`
}

/**
 * `npm run ops -- writes on|off|status [--reason <text>]`: flips the switch every API process reads (the
 * service may be running; this attaches to the same database). After a flip it waits out the processes'
 * refresh interval, so that when it returns, no API process admits a new write (writes already running finish).
 */
export async function writes(config: Config, action: WritesAction, reason: string | undefined, ops: OpsOptions): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, `writes ${action}`, log, ops)
  try {
    const db = system.database.db
    if (action === 'status') {
      const state = await readWritesState(db)
      process.stdout.write(
        state
          ? `${describe(state)}\n`
          : `Writes are ${config.writesEnabled === false ? 'off' : 'on'} (never switched: the first API process stores WRITES_ENABLED, default on)\n`,
      )
      return
    }
    const state = await setWritesState(db, action === 'on', { reason: reason ?? null, changedBy: 'ops cli' })
    await new Promise((resolve) => setTimeout(resolve, WRITES_REFRESH_MS + 100))
    process.stdout.write(
      `${describe(state)}\nEvery API process now ${state.enabled ? 'accepts writes again' : 'answers write RPCs and job creation with 503 writes_disabled; reads keep working'}.\n`,
    )
  } finally {
    await close()
  }
}
