import { sql, type Kysely } from 'kysely'
import type { Logger } from 'pino'
import { decode, type DecodedEvent } from '../commands/event-store/decode.js'
import type { EventStore, Position } from '../commands/event-store/port.js'
import type { EventType } from '../domain/events.js'
import type { Processor } from './runtime.js'
import { sleep } from '../commands/sleep.js'
import type { WorkTables } from '../migrations/work-tables.js'

export interface SubscriptionOptions {
  /** The checkpoint's name in processor_checkpoints; also the advisory lock that keeps it to one process. */
  readonly name: string
  readonly store: EventStore
  /** The database itself (public schema): processor_checkpoints. */
  readonly db: Kysely<WorkTables>
  readonly log: Logger
  /** Event types the handler wants; others (foreign types included) only move the checkpoint. */
  readonly types: ReadonlySet<EventType>
  /**
   * Acts on one event, decoded (by commands). At-least-once: it must be idempotent. A throw, or an event that
   * cannot be decoded, is retried after a pause.
   */
  readonly handle: (event: DecodedEvent) => Promise<void>
  /** Pause before retrying a failed handler or a lost connection (default 1 s). */
  readonly retryMs?: number
}

/** Events passed over without a save; the checkpoint is also saved after every handled event. */
const SAVE_EVERY = 500

/**
 * A process manager's subscription to the log: catch-up from its own checkpoint (processor_checkpoints,
 * never the projections' one, so a read-model rebuild re-fires nothing), then live, strictly in order.
 * One process at a time holds it (a session advisory lock); the others wait and take over. Delivery is
 * at-least-once: after a crash the events since the last saved checkpoint come again, and an event at or
 * before the checkpoint is skipped (deduplicated by position).
 */
export function subscriptionProcessor(options: SubscriptionOptions): Processor & { readonly position: () => Position | null } {
  const { name, store, db, log, handle } = options
  const types: ReadonlySet<string> = options.types
  const retryMs = options.retryMs ?? 1000
  let controller: AbortController | undefined
  let loop: Promise<void> | undefined
  let position: Position | null = null

  async function readCheckpoint(): Promise<Position | null> {
    const row = await db.selectFrom('processor_checkpoints').select('position').where('name', '=', name).executeTakeFirst()
    return row?.position ?? null
  }

  async function saveCheckpoint(at: Position): Promise<void> {
    await db
      .insertInto('processor_checkpoints')
      .values({ name, position: at, updated_at: new Date() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ position: at, updated_at: new Date() }))
      .execute()
  }

  async function follow(signal: AbortSignal): Promise<void> {
    position = await readCheckpoint()
    let unsaved = 0
    for await (const event of store.subscribeToAll({ after: position ?? undefined, signal })) {
      if (signal.aborted) break
      if (position !== null && store.comparePositions(event.position, position) <= 0) continue
      if (types.has(event.type)) {
        for (;;) {
          try {
            await handle(decode(event))
            break
          } catch (error) {
            if (signal.aborted) return
            log.error({ err: error, processor: name, event: event.id, type: event.type }, 'process manager failed on an event; retrying')
            await sleep(retryMs, signal)
            if (signal.aborted) return
          }
        }
        position = event.position
        await saveCheckpoint(position)
        unsaved = 0
      } else {
        position = event.position
        if (++unsaved >= SAVE_EVERY) {
          await saveCheckpoint(position)
          unsaved = 0
        }
      }
    }
    if (unsaved > 0 && position !== null) await saveCheckpoint(position)
  }

  async function run(signal: AbortSignal): Promise<void> {
    const lockKey = `processor:${name}`
    while (!signal.aborted) {
      try {
        await db.connection().execute(async (conn) => {
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${lockKey})) as locked`.execute(conn)
          if (!rows[0]?.locked) {
            await sleep(retryMs, signal)
            return
          }
          try {
            await follow(signal)
          } finally {
            await sql`select pg_advisory_unlock(hashtext(${lockKey}))`.execute(conn).catch(() => {})
          }
        })
      } catch (error) {
        if (signal.aborted) return
        log.error({ err: error, processor: name }, 'subscription failed; restarting from its checkpoint')
        await sleep(retryMs, signal)
      }
    }
  }

  return {
    name,
    position: () => position,
    start() {
      if (loop) return
      controller = new AbortController()
      loop = run(controller.signal)
    },
    async stop() {
      controller?.abort()
      await loop?.catch(() => {})
      loop = undefined
    },
  }
}
