import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { SANDBOX_KEY } from '../../domain/sandbox/key.js'
import { resetSandbox } from '../sandbox/seed.js'
import { openForOps, type OpsOptions } from './open.js'

/**
 * `npm run ops -- sandbox reset`: creates the public sandbox if needed, or retires its fixture and seeds a
 * fresh one; other organizations are untouched. Works while the service runs: its projection runner
 * applies what this writes (or this command's own runner does, when no service is running).
 */
export async function sandboxCommand(config: Config, action: string | undefined, ops: OpsOptions): Promise<number> {
  if (action !== 'reset') {
    process.stderr.write('Usage: npm run ops -- sandbox reset\n')
    return 2
  }
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, 'sandbox reset', log, ops)
  try {
    // Projects only if no other process holds the group's lock (a running service does).
    system.runner.start()
    const outcome = await resetSandbox({ write: system.write, read: system.read, db: system.database.db, watermark: system.watermark, log })
    const what = outcome.created
      ? 'created'
      : `reset (retired client${outcome.retiredClientIds.length === 1 ? '' : 's'} ${outcome.retiredClientIds.join(', ') || 'none'})`
    process.stdout.write(
      `Sandbox ${what}: organization ${outcome.orgId}, client ${outcome.clientId}, months ${outcome.months[0]}…${outcome.months.at(-1)}\n` +
        `Sandbox key (public, read-only): ${SANDBOX_KEY}\n`,
    )
    return 0
  } finally {
    await close()
  }
}
