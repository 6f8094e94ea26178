import { EventEmitter } from 'node:events'
import { sql, type Kysely } from 'kysely'
import type { WorkTables } from '../migrations/work-tables.js'
import type { Logger } from 'pino'
import type { EventStore } from '../commands/event-store/port.js'
import { batches } from './batches.js'
import { applyBatch, readCheckpoint } from './checkpoint.js'
import { clearProjectionFailure, recordProjectionFailure } from './failures.js'
import type { Projector } from './projector.js'
import type { ProjectionWatermark } from './watermark.js'
import { sleep } from '../commands/sleep.js'
import { isStoreUnavailable } from '../commands/event-store/unavailable.js'

export interface ProjectionRunnerOptions {
  readonly store: EventStore
  readonly db: Kysely<WorkTables>
  readonly projectors: readonly Projector[]
  readonly group: string
  readonly schema: string
  readonly batchSize?: number
  readonly watermark?: ProjectionWatermark
  readonly log: Logger
}

const RETRY_MS = 1000

/**
 * Runs one projection group: follows the log from its checkpoint, applying batches whose checkpoint moves
 * in the same transaction. One runner per group across all processes (a session advisory lock); the
 * others wait for the lock, so a second process takes over when the first stops.
 */
export class ProjectionRunner extends EventEmitter {
  readonly #options: ProjectionRunnerOptions
  #controller: AbortController | undefined
  #loop: Promise<void> | undefined
  /** The last position applied (for the failure record). */
  #position: string | null = null
  /** Whether a failure may be on record (unknown whenever the group is taken over: another runner may have left one). */
  #mayBeFailing = true

  constructor(options: ProjectionRunnerOptions) {
    super()
    this.#options = options
  }

  start(): void {
    if (this.#loop) return
    const controller = new AbortController()
    this.#controller = controller
    this.#loop = this.#run(controller.signal)
  }

  async stop(): Promise<void> {
    this.#controller?.abort()
    await this.#loop
    this.#loop = undefined
  }

  async #run(signal: AbortSignal): Promise<void> {
    const { db, group, schema, log } = this.#options
    while (!signal.aborted) {
      try {
        await db.connection().execute(async (conn) => {
          const key = `projection:${schema}:${group}`
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as locked`.execute(conn)
          if (!rows[0]?.locked) {
            await sleep(RETRY_MS, signal)
            return
          }
          try {
            log.debug({ group, schema }, 'projection runner holds the group lock')
            while (!signal.aborted) await this.#follow(signal)
          } finally {
            await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn).catch(() => {})
          }
        })
      } catch (error) {
        if (signal.aborted) return
        log.error({ err: error, group }, 'projection runner failed; retrying')
        this.emit('error-logged', error)
        // A poison event stops the group here and it retries forever: health shows it (projections.failing).
        // An unreachable database is no poison event: the group just waits for it, and health says why.
        if (!isStoreUnavailable(error)) {
          this.#mayBeFailing = true
          await recordProjectionFailure(db, { group, position: this.#position, error, now: new Date() })
        }
        await sleep(RETRY_MS, signal)
      }
    }
  }

  /** Follows the log from the stored checkpoint until the checkpoint moves under it or the signal aborts. */
  async #follow(outer: AbortSignal): Promise<void> {
    const { store, db, group, schema, projectors, watermark } = this.#options
    let position = await readCheckpoint(db, schema, group)
    this.#position = position
    // Taking the group over: a runner that held it before may have left a failure on record.
    this.#mayBeFailing = true
    if (position !== null) watermark?.advance(position)
    // Nothing to apply (a lost connection, not a poison event, made it fail): it is not failing any more. A
    // poison event stays after the checkpoint, so its failure is only cleared by a batch that applies.
    const head = await store.headPosition()
    if (head === null || (position !== null && store.comparePositions(head, position) <= 0)) {
      await clearProjectionFailure(db, group)
      this.#mayBeFailing = false
    }
    const controller = new AbortController()
    const abort = () => controller.abort()
    outer.addEventListener('abort', abort, { once: true })
    try {
      // Open while a batch's transaction is: the subscription's live reads wait for it (beforeLiveRead).
      let inBatch: Promise<void> | undefined
      const live = store.subscribeToAll({ after: position ?? undefined, signal: controller.signal, beforeLiveRead: () => inBatch })
      for await (const batch of batches(live, this.#options.batchSize ?? 500)) {
        let batchEnded!: () => void
        inBatch = new Promise((resolve) => (batchEnded = resolve))
        const applied = await applyBatch(db, schema, group, projectors, batch, position).finally(() => {
          inBatch = undefined
          batchEnded()
        })
        if (!applied) return // the checkpoint moved (a rebuild swapped, or another runner): restart from it
        position = batch[batch.length - 1]!.position
        this.#position = position
        if (this.#mayBeFailing) {
          await clearProjectionFailure(db, group)
          this.#mayBeFailing = false
        }
        watermark?.advance(position)
        this.emit('applied', batch.length, position)
      }
    } finally {
      controller.abort()
      outer.removeEventListener('abort', abort)
    }
  }
}
