import { once } from 'node:events'
import { redactSecretFields } from '../../domain/exports/redact.js'
import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { openForOps, type OpsOptions } from './open.js'

/**
 * `npm run ops -- replay --org <id> [--from <position>]`: an organization's history as NDJSON on stdout,
 * one event per line, in log order. `--from` resumes after a position printed by an earlier replay.
 * Fields the organization export leaves out (secrets' digests, hints, sealed secrets) are left out here too
 * and named in the line's `redacted`.
 */
export async function replay(config: Config, orgId: number, from: string | undefined, ops: OpsOptions): Promise<number> {
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, 'replay', log, ops)
  try {
    if (from !== undefined) {
      try {
        system.store.comparePositions(from, from)
      } catch {
        process.stderr.write(`--from ${from} is not a position of this event store (copy one from a replay line)\n`)
        return 2
      }
    }
    let count = 0
    for await (const event of system.store.readAll({ after: from })) {
      if (event.metadata?.org_id !== orgId) continue
      // An auditor's copy carries no secrets nor their digests: the export's rule, and the line says what it left out.
      const { value: data, redacted } = redactSecretFields(event.type, event.data)
      const line = JSON.stringify({
        position: event.position,
        stream: event.stream,
        revision: Number(event.revision),
        id: event.id,
        type: event.type,
        data,
        metadata: event.metadata,
        recorded_at: event.recordedAt.toISOString(),
        ...(redacted.length > 0 ? { redacted } : {}),
      })
      count++
      if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain')
    }
    process.stderr.write(`replay: ${count} events of organization ${orgId}\n`)
    return 0
  } finally {
    await close()
  }
}
