import { sql, type Kysely } from 'kysely'
import type { RecordedEvent } from '../commands/event-store/port.js'
import { applyBatchLocked, applyEvents, SWAP_LOCK_KEY } from './checkpoint.js'
import type { Projector } from './projector.js'
import type { ReadDb } from './tables.js'

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
  db: Kysely<any>,
  lanes: readonly Kysely<any>[],
  schema: string,
  group: string,
  split: PageSplit,
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  if (events.length === 0) return true
  return db.connection().execute(async (conn) => {
    let applied = false
    // Started first: their statements run while this connection works through the other projectors. Every
    // lane is waited for, even after one failed, so no statement is still running when the caller lets go
    // of the connections.
    const laneWrites = Promise.allSettled(split.lanes.map((projector, i) => applyEvents(lanes[i]!.withSchema(schema) as ReadDb, [projector], events))).then(
      (results) => {
        for (const result of results) if (result.status === 'rejected') throw result.reason
      },
    )
    laneWrites.catch(() => {})
    try {
      await sql.raw(`begin; select pg_advisory_xact_lock_shared(${SWAP_LOCK_KEY})`).execute(conn)
      applied = await applyBatchLocked(conn, schema, group, split.before, events, expectedStart)
      await laneWrites
      if (applied) await applyEvents(conn.withSchema(schema) as ReadDb, split.after, events)
    } catch (error) {
      await sql.raw('rollback').execute(conn).catch(() => {})
      await laneWrites.catch(() => {})
      throw error
    }
    await sql.raw(applied ? 'commit' : 'rollback').execute(conn)
    return applied
  })
}
