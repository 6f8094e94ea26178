import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { openForOps, type OpsOptions } from './open.js'

/** `npm run ops -- migrate`: applies pending migrations and creates missing read models, then exits. */
export async function migrate(config: Config, ops: OpsOptions): Promise<void> {
  const log = createLogger(config.logLevel)
  const { close } = await openForOps(config, 'migrate', log, ops)
  await close()
  process.stdout.write('Migrations applied; read models are in place.\n')
}
