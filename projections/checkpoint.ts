import { sql, type Kysely } from 'kysely'
import type { RecordedEvent } from '../commands/event-store/port.js'
import { READ_MODEL_VERSION } from '../migrations/read-models/index.js'
import { handlerFor, type Projector } from './projector.js'
import type { ReadDb, ReadModels } from './tables.js'

/**
 * Taken shared by every batch and exclusive by a rebuild's swap, so a swap never lands in the middle of
 * a batch. (An arbitrary constant: advisory locks are keyed by integers.)
 */
export const SWAP_LOCK_KEY = 7_243_001

export async function readCheckpoint(db: Kysely<any>, schema: string, group: string): Promise<string | null> {
  const row = await (db.withSchema(schema) as Kysely<ReadModels>)
    .selectFrom('projection_checkpoint')
    .select('position')
    .where('group_name', '=', group)
    .executeTakeFirst()
  if (!row) throw new Error(`No checkpoint for projection group ${group} in schema ${schema}`)
  return row.position
}

export async function insertCheckpoint(db: Kysely<any>, schema: string, group: string): Promise<void> {
  await (db.withSchema(schema) as Kysely<ReadModels>)
    .insertInto('projection_checkpoint')
    .values({ group_name: group, position: null, read_model_version: READ_MODEL_VERSION })
    .onConflict((oc) => oc.column('group_name').doNothing())
    .execute()
}

/**
 * Applies the events, in order, to each projector that handles their type (or `*`). Projectors write only
 * their own tables, so each one takes the whole batch in turn: in a few statements when it has a batch
 * form, else event by event.
 */
export async function applyEvents(db: ReadDb, projectors: readonly Projector[], events: readonly RecordedEvent[]): Promise<void> {
  for (const projector of projectors) {
    if (projector.applyBatch) {
      await projector.applyBatch(db, events)
      continue
    }
    for (const event of events) {
      const handler = handlerFor(projector, event.type)
      if (handler) await handler(db, event)
    }
  }
}

/**
 * Applies a batch and moves the checkpoint in the same transaction, but only if the checkpoint is still
 * where the batch started (another runner, or a rebuild's swap, may have moved it): returns false then,
 * and nothing is written.
 */
export async function applyBatch(
  db: Kysely<any>,
  schema: string,
  group: string,
  projectors: readonly Projector[],
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  if (events.length === 0) return true
  // A transaction by hand on one connection, so that opening it, taking the swap lock (shared) and moving
  // the checkpoint is one round trip: statements without parameters (the values are quoted literals), sent as
  // one simple query, which runs them in order. Live batches are small and every round trip is latency a
  // write waits for (read-your-writes). A simple query with several statements answers no row counts through
  // kysely, so the move reports "not moved" by failing (see checkpointMoveSql) and is rolled back.
  return db.connection().execute(async (conn) => {
    try {
      await sql.raw(`begin; select pg_advisory_xact_lock_shared(${SWAP_LOCK_KEY}); ${checkpointMoveSql(schema, group, events, expectedStart)}`).execute(conn)
      await applyEvents(conn.withSchema(schema) as ReadDb, projectors, events)
    } catch (error) {
      await sql.raw('rollback').execute(conn).catch(() => {})
      if ((error as { code?: string }).code === CHECKPOINT_NOT_MOVED) return false
      throw error
    }
    await sql.raw('commit').execute(conn)
    return true
  })
}

/** The SQLSTATE of the checkpoint move's deliberate failure: division_by_zero, which nothing else in it can raise. */
const CHECKPOINT_NOT_MOVED = '22012'

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`
const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`

/**
 * The checkpoint move of applyBatchLocked as one statement without parameters: moves the checkpoint to the
 * batch's last position if it is still at `expectedStart` (locking its row against another runner), and
 * divides by the number of rows moved, so a checkpoint that moved under the batch fails the statement with
 * division_by_zero (CHECKPOINT_NOT_MOVED) instead of answering a count.
 */
function checkpointMoveSql(schema: string, group: string, events: readonly RecordedEvent[], expectedStart: string | null): string {
  return `with moved as (
      update ${identifier(schema)}.projection_checkpoint
         set position = ${literal(events[events.length - 1]!.position)}, events_applied = events_applied + ${events.length}, updated_at = now()
       where group_name = ${literal(group)} and position ${expectedStart === null ? 'is null' : `= ${literal(expectedStart)}`}
       returning 1
    )
    select 1 / (select count(*)::int from moved)`
}

/**
 * The body of applyBatch for a caller that already holds the right locks in a transaction `trx`. The
 * checkpoint moves first, conditionally (which also locks its row against another runner); the batch's
 * writes follow in the same transaction, so they commit together or not at all.
 */
export async function applyBatchLocked(
  trx: Kysely<any>,
  schema: string,
  group: string,
  projectors: readonly Projector[],
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  const rdb = trx.withSchema(schema) as ReadDb
  const moved = await rdb
    .updateTable('projection_checkpoint')
    .set({
      position: events[events.length - 1]!.position,
      events_applied: sql`events_applied + ${events.length}`,
      updated_at: sql`now()`,
    })
    .where('group_name', '=', group)
    .where((eb) => (expectedStart === null ? eb('position', 'is', null) : eb('position', '=', expectedStart)))
    .executeTakeFirst()
  if (Number(moved.numUpdatedRows) === 0) return false
  await applyEvents(rdb, projectors, events)
  return true
}
