import { mintPlatformKey } from '../../commands/platform.js'
import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { openForOps, type OpsOptions } from './open.js'

/** `npm run ops -- create-platform-key [--name <name>]`: a new platform key, printed once. */
export async function createPlatformKey(config: Config, name: string, ops: OpsOptions): Promise<void> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, 'create-platform-key', log, ops)
  try {
    const created = await mintPlatformKey(system.write, { name })
    process.stdout.write(`Platform key ${created.id} (shown once): ${created.key}\n`)
  } finally {
    await close()
  }
}
