import { pruneCaptureRecord } from '../../commands/aeo/captures.js'
import { systemContext } from '../../commands/command-handler.js'
import { periodicProcessor } from '../periodic.js'
import type { Processor, ProcessorDeps } from '../runtime.js'

type PrunerDeps = Pick<ProcessorDeps, 'write' | 'db' | 'aeo'>

const BATCH = 200

/**
 * One pruning pass: every raw record older than settings.aeo.recordRetentionDays (by the write clock)
 * becomes '' and its capture gets AeoCaptureRecordPruned; the reports stay. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so pruners in several processes share the work. Returns how many were pruned.
 */
export async function pruneExpiredRecords(deps: PrunerDeps): Promise<number> {
  const now = deps.write.clock()
  const cutoff = new Date(now.getTime() - deps.aeo.recordRetentionDays * 24 * 60 * 60 * 1000)
  const context = systemContext('aeo-record-pruner')
  let pruned = 0
  for (;;) {
    const count = await deps.db.transaction().execute(async (trx) => {
      const rows: { capture_id: number; org_id: number }[] = await trx
        .selectFrom('aeo_capture_records')
        .select(['capture_id', 'org_id'])
        .where('pruned_at', 'is', null)
        .where('created_at', '<', cutoff)
        .orderBy('created_at')
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute()
      for (const row of rows) {
        await pruneCaptureRecord({ ...deps.write, db: trx }, context, { capture_id: Number(row.capture_id), org_id: Number(row.org_id) })
      }
      return rows.length
    })
    pruned += count
    if (count < BATCH) return pruned
  }
}

/** Runs a pruning pass at start and then every sweep interval; stop() waits for a pass in hand. */
export function recordPrunerProcessors(deps: ProcessorDeps): Processor[] {
  return [
    periodicProcessor(
      'aeo-record-pruner',
      deps.aeoProcessors.sweepIntervalMs,
      async () => {
        const n = await pruneExpiredRecords(deps)
        if (n > 0) deps.log.info({ pruned: n }, 'aeo raw records pruned')
      },
      (error) => deps.log.error({ err: error }, 'aeo record pruning failed'),
    ),
  ]
}
