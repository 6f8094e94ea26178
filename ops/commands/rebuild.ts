import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { MAIN_GROUP, projectors } from '../../projections/index.js'
import { rebuildReadModels, type RebuildProgress } from '../../projections/rebuild.js'
import { openForOps, type OpsOptions } from './open.js'

function describe(p: RebuildProgress): string {
  const total = p.eventsTotal === null ? '' : ` of ${p.eventsTotal.toLocaleString('en-US')}`
  const percent = p.eventsTotal ? ` (${((100 * p.eventsDone) / Math.max(p.eventsTotal, 1)).toFixed(1)}%)` : ''
  const eta = p.etaSeconds === null ? '' : `, ETA ${p.etaSeconds}s`
  return `rebuild: ${p.phase} ${p.eventsDone.toLocaleString('en-US')}${total} events${percent}, ${p.eventsPerSecond.toLocaleString('en-US')} events/s${eta}`
}

/** `npm run ops -- rebuild`: blue/green rebuild of every read model while the service keeps serving. */
export async function rebuild(config: Config, ops: OpsOptions): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, 'rebuild', log, ops)
  try {
    const started = Date.now()
    const final = await rebuildReadModels({
      store: system.store,
      db: system.database.db,
      projectors,
      group: MAIN_GROUP,
      onProgress: (p) => process.stderr.write(`${describe(p)}\n`),
    })
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    process.stdout.write(
      `Rebuilt the read models from ${final.eventsDone.toLocaleString('en-US')} events in ${seconds}s; they are live now.\n`,
    )
  } finally {
    await close()
  }
}
