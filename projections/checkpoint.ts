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
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock_shared(${SWAP_LOCK_KEY})`.execute(trx)
    return applyBatchLocked(trx, schema, group, projectors, events, expectedStart)
  })
}

/** The body of applyBatch for a caller that already holds the right locks in `trx`. */
export async function applyBatchLocked(
  trx: Kysely<any>,
  schema: string,
  group: string,
  projectors: readonly Projector[],
  events: readonly RecordedEvent[],
  expectedStart: string | null,
): Promise<boolean> {
  const rdb = trx.withSchema(schema) as ReadDb
  const current = await rdb
    .selectFrom('projection_checkpoint')
    .select('position')
    .where('group_name', '=', group)
    .forUpdate()
    .executeTakeFirst()
  if (!current || current.position !== expectedStart) return false
  await applyEvents(rdb, projectors, events)
  await rdb
    .updateTable('projection_checkpoint')
    .set({
      position: events[events.length - 1]!.position,
      events_applied: sql`events_applied + ${events.length}`,
      updated_at: sql`now()`,
    })
    .where('group_name', '=', group)
    .execute()
  return true
}
