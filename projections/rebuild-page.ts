import type { Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import { applyEvents } from './apply-events.js'
import { applyBatchLocked, takeSwapLockShared } from './checkpoint.js'
import type { RecordedEvent } from '../commands/event-store/port.js'
import type { Projector } from './projector.js'
import { readModelsIn } from './tables.js'

/**
 * The projectors of a rebuild page in three parts: `lanes`, the standalone ones (see Projector.standalone),
 * each on a connection of its own; `before`, the others listed before the last standalone one; `after`,
 * those listed after it.
 */
export interface PageSplit {
  readonly lanes: readonly Projector[]
  readonly before: readonly Projector[]
  readonly after: readonly Projector[]
}

export function splitForRebuild(projectors: readonly Projector[]): PageSplit {
  let last = -1
  projectors.forEach((p, i) => {
    if (p.standalone === true) last = i
  })
  return {
    lanes: projectors.filter((p) => p.standalone === true),
    before: projectors.slice(0, last + 1).filter((p) => p.standalone !== true),
    after: projectors.slice(last + 1),
  }
}

/**
 * One page of a rebuild's building phase (the fresh schema, which nothing serves yet), on several connections
 * so that PostgreSQL works on several statements at once while this process builds the others: the page's
 * transaction on `main` moves the checkpoint and applies the `before` projectors while each lane applies its
 * standalone projector in statements of its own (its own transaction); once all are done, `after` runs in the
 * page's transaction (it sees the lanes' rows, as it would in list order), which then commits.
 *
 * The effect equals applyBatch's, except that the lanes' rows commit a moment before the rest of the page:
 * harmless here, because a rebuild that fails or crashes is never resumed, it starts over from position zero
 * on a freshly dropped schema. (The live runner and the rebuild's final catch-up under the swap lock keep
 * one transaction per batch.) Returns false, like applyBatch, when the checkpoint had moved; the lanes'
 * rows of the page may be written then, and the caller abandons the schema.
 */
export async function applyRebuildPage(
  db: Kysely<WorkTables>,
  lanes: readonly Kysely<WorkTables>[],
  schema: string,
  group: string,
  split: PageSplit,
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  if (events.length === 0) return true
  // Started first: their statements run while the page's transaction works through the other projectors.
  // Every lane is waited for, even after one failed, so no statement is still running when the caller lets
  // go of the connections.
  const laneWrites = Promise.allSettled(
    split.lanes.map((projector, i) => applyEvents(readModelsIn(lanes[i]!, schema), [projector], events)),
  ).then((results) => {
    for (const result of results) if (result.status === 'rejected') throw result.reason
  })
  laneWrites.catch(() => {})
  try {
    return await db.transaction().execute(async (trx) => {
      await takeSwapLockShared(trx)
      const applied = await applyBatchLocked(trx, schema, group, split.before, events, expectedStart)
      await laneWrites
      if (applied) await applyEvents(readModelsIn(trx, schema), split.after, events)
      return applied
    })
  } finally {
    await laneWrites.catch(() => {})
  }
}
