import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import type { EventStore, Position, RecordedEvent } from '../commands/event-store/port.js'
import { createReadModelSchema, LIVE_SCHEMA } from '../migrations/read-models/index.js'
import { applyBatchLocked, insertCheckpoint, SWAP_LOCK_KEY } from './checkpoint.js'
import type { Projector } from './projector.js'
import { applyRebuildPage, splitForRebuild } from './rebuild-page.js'
import { schemaExists } from './setup.js'

export const NEXT_SCHEMA = 'read_models_next'
const RETIRED_SCHEMA = 'read_models_retired'

export interface RebuildProgress {
  readonly phase: 'building' | 'swapping' | 'done'
  readonly eventsDone: number
  /** Events in the log when the rebuild started plus those appended since, when the store can tell. */
  readonly eventsTotal: number | null
  readonly eventsPerSecond: number
  readonly etaSeconds: number | null
}

export interface RebuildOptions {
  readonly store: EventStore
  readonly db: Kysely<WorkTables>
  readonly projectors: readonly Projector[]
  readonly group: string
  readonly batchSize?: number
  readonly onProgress?: ((progress: RebuildProgress) => void) | undefined
  /** How often progress is reported. */
  readonly progressEveryMs?: number
}

export class RebuildInProgressError extends Error {
  constructor() {
    super('Another rebuild is running against this database; wait for it to finish')
    this.name = 'RebuildInProgressError'
  }
}

/**
 * Blue/green rebuild: builds every read model from position zero into a fresh schema while the live one
 * keeps serving, then (holding the swap lock, so no live batch is half-applied) applies the last events
 * and renames the new schema into place in one transaction. Only projectors run: side effects (webhooks,
 * jobs) have their own checkpoints and are never re-fired.
 */
export async function rebuildReadModels(options: RebuildOptions): Promise<RebuildProgress> {
  const { store, db, projectors, group } = options
  // Large batches: the per-batch round trips (lock, checkpoint, commit) are paid once per 5,000 events.
  const batchSize = options.batchSize ?? 5000
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext('read-models:rebuild')) as locked`.execute(conn)
    if (!rows[0]?.locked) throw new RebuildInProgressError()
    try {
      await sql`drop schema if exists ${sql.id(NEXT_SCHEMA)} cascade`.execute(db)
      await createReadModelSchema(db, NEXT_SCHEMA)
      await insertCheckpoint(db, NEXT_SCHEMA, group)

      const started = Date.now()
      const total = await store.countAfter(undefined)
      let done = 0
      let lastReport = 0
      const report = (phase: RebuildProgress['phase']): RebuildProgress => {
        const seconds = Math.max((Date.now() - started) / 1000, 0.001)
        const rate = done / seconds
        const eventsTotal = total === null ? null : Math.max(total, done)
        const progress: RebuildProgress = {
          phase,
          eventsDone: done,
          eventsTotal,
          eventsPerSecond: Math.round(rate),
          etaSeconds: eventsTotal === null || rate === 0 ? null : Math.max(0, Math.round((eventsTotal - done) / rate)),
        }
        options.onProgress?.(progress)
        return progress
      }

      let position: Position | null = null
      const split = splitForRebuild(projectors)
      // A connection per standalone projector (its lane), held for the whole building phase.
      await withConnections(db, split.lanes.length, async (lanes) => {
        let next = readAhead(store, position, batchSize)
        for (;;) {
          const page = await next
          if (page.length === 0) break
          // The next page is read while this one is applied: reading and writing overlap.
          next = readAhead(store, page[page.length - 1]!.position, batchSize)
          if (!(await applyRebuildPage(db, lanes, NEXT_SCHEMA, group, split, page, position))) {
            throw new Error('The rebuild schema was changed by someone else; aborting')
          }
          position = page[page.length - 1]!.position
          done += page.length
          if (Date.now() - lastReport >= (options.progressEveryMs ?? 1000)) {
            lastReport = Date.now()
            report('building')
          }
        }
      })

      report('swapping')
      await db.transaction().execute(async (trx) => {
        // Exclusive: waits for the live runner's current batch, and holds the next one until the swap commits.
        await sql`select pg_advisory_xact_lock(${SWAP_LOCK_KEY})`.execute(trx)
        for (;;) {
          const page = await readPage(store, position, batchSize)
          if (page.length === 0) break
          if (!(await applyBatchLocked(trx, NEXT_SCHEMA, group, projectors, page, position))) {
            throw new Error('The rebuild schema was changed by someone else; aborting')
          }
          position = page[page.length - 1]!.position
          done += page.length
        }
        await sql`drop schema if exists ${sql.id(RETIRED_SCHEMA)} cascade`.execute(trx)
        if (await schemaExists(trx, LIVE_SCHEMA)) {
          await sql`alter schema ${sql.id(LIVE_SCHEMA)} rename to ${sql.id(RETIRED_SCHEMA)}`.execute(trx)
        }
        await sql`alter schema ${sql.id(NEXT_SCHEMA)} rename to ${sql.id(LIVE_SCHEMA)}`.execute(trx)
      })
      await sql`drop schema if exists ${sql.id(RETIRED_SCHEMA)} cascade`.execute(db)
      return report('done')
    } finally {
      await sql`select pg_advisory_unlock(hashtext('read-models:rebuild'))`.execute(conn).catch(() => {})
    }
  })
}

/** A page read in the background; awaited later (a failure then surfaces there, not as an unhandled rejection). */
function readAhead(store: EventStore, after: Position | null, limit: number): Promise<RecordedEvent[]> {
  const page = readPage(store, after, limit)
  page.catch(() => {})
  return page
}

async function readPage(store: EventStore, after: Position | null, limit: number): Promise<RecordedEvent[]> {
  const page = []
  for await (const event of store.readAll({ after: after ?? undefined, maxCount: limit })) page.push(event)
  return page
}

/**
 * Runs `work` holding `count` connections of the pool, each for the whole call. The pool must have room for
 * them and the rebuild's three others (its lock, a page's transaction, the read ahead): openPool's 20 does.
 */
function withConnections<T>(
  db: Kysely<WorkTables>,
  count: number,
  work: (connections: Kysely<WorkTables>[]) => Promise<T>,
  held: Kysely<WorkTables>[] = [],
): Promise<T> {
  if (held.length === count) return work(held)
  return db.connection().execute((conn) => withConnections(db, count, work, [...held, conn]))
}
