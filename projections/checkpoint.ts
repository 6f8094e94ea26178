import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import { READ_MODEL_VERSION } from '../migrations/read-models/index.js'
import { applyEvents } from './apply-events.js'
import type { RecordedEvent } from '../commands/event-store/port.js'
import type { Projector } from './projector.js'
import { readModelsIn } from './tables.js'

/**
 * Taken shared by every batch and exclusive by a rebuild's swap, so a swap never lands in the middle of
 * a batch. (An arbitrary constant: advisory locks are keyed by integers.)
 */
export const SWAP_LOCK_KEY = 7_243_001

export async function readCheckpoint(db: Kysely<WorkTables>, schema: string, group: string): Promise<string | null> {
  const row = await readModelsIn(db, schema)
    .selectFrom('projection_checkpoint')
    .select('position')
    .where('group_name', '=', group)
    .executeTakeFirst()
  if (!row) throw new Error(`No checkpoint for projection group ${group} in schema ${schema}`)
  return row.position
}

export async function insertCheckpoint(db: Kysely<WorkTables>, schema: string, group: string): Promise<void> {
  await readModelsIn(db, schema)
    .insertInto('projection_checkpoint')
    .values({ group_name: group, position: null, read_model_version: READ_MODEL_VERSION })
    .onConflict((oc) => oc.column('group_name').doNothing())
    .execute()
}

/**
 * Takes the swap lock shared for the rest of the transaction `trx`. Its own statement, before any statement
 * that names a read-model table: PostgreSQL resolves a table's name when it parses the statement, so a
 * statement that waited for the lock inside itself could write to a schema a swap has just renamed away.
 */
export async function takeSwapLockShared(trx: Kysely<WorkTables>): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${SWAP_LOCK_KEY})`.execute(trx)
}

/**
 * Applies a batch and moves the checkpoint in one transaction, but only if the checkpoint is still where
 * the batch started (another runner, or a rebuild's swap, may have moved it): returns false then, and
 * nothing is written. Statements: begin, the swap lock, the move, the projectors' writes, commit. Live
 * batches are small and a write waits for them (read-your-writes), so nothing else is sent.
 */
export async function applyBatch(
  db: Kysely<WorkTables>,
  schema: string,
  group: string,
  projectors: readonly Projector[],
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  if (events.length === 0) return true
  return db.transaction().execute(async (trx) => {
    await takeSwapLockShared(trx)
    return applyBatchLocked(trx, schema, group, projectors, events, expectedStart)
  })
}

/**
 * The body of applyBatch for a caller that already holds the swap lock in a transaction `trx`. The
 * checkpoint moves first, conditionally (which also locks its row against another runner); when it had
 * moved, nothing is written and the answer is false. The batch's writes follow in the same transaction, so
 * they commit together with the move or not at all.
 */
export async function applyBatchLocked(
  trx: Kysely<WorkTables>,
  schema: string,
  group: string,
  projectors: readonly Projector[],
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  if (!(await moveCheckpoint(trx, schema, group, events, expectedStart))) return false
  await applyEvents(readModelsIn(trx, schema), projectors, events)
  return true
}

/** Moves the group's checkpoint past `events` if it is still at `expectedStart`; false when it had moved. */
async function moveCheckpoint(
  trx: Kysely<WorkTables>,
  schema: string,
  group: string,
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  const moved = await readModelsIn(trx, schema)
    .updateTable('projection_checkpoint')
    .set({
      position: events[events.length - 1]!.position,
      events_applied: sql`events_applied + ${events.length}`,
      updated_at: sql`now()`,
    })
    .where('group_name', '=', group)
    .where('position', 'is not distinct from', expectedStart)
    .executeTakeFirst()
  return moved.numUpdatedRows > 0n
}
