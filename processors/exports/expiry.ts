import { systemContext } from '../../commands/command-handler.js'
import { expireOrgExport } from '../../commands/exports.js'
import { exportsDueForExpiry } from '../../projections/exports/queries.js'
import { periodicProcessor } from '../periodic.js'
import type { Processor, ProcessorDeps } from '../runtime.js'

type ExpiryDeps = Pick<ProcessorDeps, 'write' | 'read' | 'blobs' | 'log'>

/** How often the sweep runs. An export is unlisted and undownloadable at expires_at anyway (the queries check it); the sweep deletes the file and records it. */
export const EXPORT_EXPIRY_INTERVAL_MS = 10 * 60_000
const BATCH = 100

/**
 * One expiry pass: every export past its 7 days (by the write clock) loses its file, then gets
 * OrgExportExpired. File first: a pass that fails in between leaves a recorded export without a file for
 * the next pass to expire (deleting nothing), never an unrecorded file. Several processes may sweep at
 * once: deletes and the event are both idempotent (the aggregate records the expiry once). Returns how many
 * exports it expired.
 */
export async function expireOrgExports(deps: ExpiryDeps): Promise<number> {
  const context = systemContext('export-expiry')
  const now = deps.write.clock()
  let expired = 0
  let after: { expires_at: Date; job_id: number } | null = null
  for (;;) {
    // Keyset order, so rows the read model still shows (it lags the events just appended) are not revisited.
    const due = await exportsDueForExpiry(deps.read, now, BATCH, after)
    for (const row of due) {
      await deps.blobs.delete(row.path)
      const outcome = await expireOrgExport(deps.write, context, Number(row.job_id), Number(row.org_id))
      if (outcome.expired) expired++
    }
    const last = due.at(-1)
    if (due.length < BATCH || !last) return expired
    after = { expires_at: last.expires_at, job_id: Number(last.job_id) }
  }
}

/** The export expiry sweep: a pass at start and every EXPORT_EXPIRY_INTERVAL_MS; stop() waits for a pass in hand. */
export function exportExpiryProcessor(deps: ProcessorDeps, intervalMs = EXPORT_EXPIRY_INTERVAL_MS): Processor {
  return periodicProcessor(
    'export-expiry',
    intervalMs,
    async () => {
      const n = await expireOrgExports(deps)
      if (n > 0) deps.log.info({ expired: n }, 'organization exports expired')
    },
    (error) => deps.log.error({ err: error }, 'export expiry failed; retrying at the next pass'),
  )
}
