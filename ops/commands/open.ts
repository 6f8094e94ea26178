import type { Logger } from 'pino'
import type { Config } from '../config.js'
import { attachDataDir } from '../data-dir.js'
import { isRankRelayDatabase, NoStoreError, shownUrl } from '../store-target.js'
import { openSystem, type System } from '../system.js'

/** What every ops command takes from the command line besides its own arguments. */
export interface OpsOptions {
  /** --init: the command may create the store when there is none (only `serve` does so by default). */
  readonly init: boolean
}

/**
 * For ops commands: the same database the service uses (DATABASE_URL, or the embedded cluster of DATA_DIR,
 * attached to while the service runs, started for the command otherwise). Says on stderr what it attached
 * to, and refuses (NoStoreError) a DATA_DIR without a cluster or a DATABASE_URL without RankRelay's tables
 * unless --init: opening the system would otherwise create and migrate a store nobody meant to have.
 */
export async function openForOps(
  config: Config,
  command: string,
  log: Logger,
  ops: OpsOptions,
): Promise<{ system: System; close(): Promise<void> }> {
  let database: { url: string; close(): Promise<void> }
  let where: string
  if (config.databaseUrl) {
    where = `DATABASE_URL=${shownUrl(config.databaseUrl)}`
    const present = await isRankRelayDatabase(config.databaseUrl)
    if (!present && !ops.init) throw new NoStoreError(where, 'no RankRelay tables in that database')
    database = { url: config.databaseUrl, close: async () => {} }
    if (!present) where += ' (set up by --init)'
  } else {
    const attached = await attachDataDir(config.dataDir, `npm run ops -- ${command}`, (line) => log.debug({ postgres: line }), ops)
    database = attached
    where = `DATA_DIR=${config.dataDir} (${attached.how})`
  }
  const eventStore = config.eventStoreUrl ? `, event store EVENTSTORE_URL=${shownUrl(config.eventStoreUrl)}` : ''
  process.stderr.write(`${command}: attached to ${where}${eventStore}\n`)
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
