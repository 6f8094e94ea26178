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
    // The service's own key when the operator gives one (SERVICE_ENCRYPTION_KEY, required beside DATABASE_URL),
    // so anything an ops command seals opens in the service. Without it the system's key lives as long as the
    // command: no ops command seals through the system today (create-user resolves the DATA_DIR key itself).
    const webhooks = config.webhooks.serviceKey ? { webhooks: { serviceKey: config.webhooks.serviceKey } } : {}
    const system = await openSystem({ databaseUrl: database.url, eventStoreUrl: config.eventStoreUrl, log, ...webhooks })
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
