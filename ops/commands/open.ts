import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { attachDataDir } from '../data-dir.js'
import { openSystem, type System } from '../system.js'

/**
 * For ops commands: the same database the service uses (DATABASE_URL, or the embedded cluster of DATA_DIR,
 * attached to while the service runs, started for the command otherwise).
 */
export async function openForOps(config: Config, command: string, log: Logger): Promise<{ system: System; close(): Promise<void> }> {
  const database = config.databaseUrl
    ? { url: config.databaseUrl, close: async () => {} }
    : await attachDataDir(config.dataDir, `npm run ops -- ${command}`, (line) => log.debug({ postgres: line }))
  try {
    const system = await openSystem({ databaseUrl: database.url, eventStoreUrl: config.eventStoreUrl, log })
    return {
      system,
      close: async () => {
        await system.close()
        await database.close()
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}
