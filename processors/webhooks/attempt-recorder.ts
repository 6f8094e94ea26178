import { sql, type Kysely } from 'kysely'
import { decode } from '../../commands/event-store/decode.js'
import type { EventStore, NewEvent, StreamWriteOutcome } from '../../commands/event-store/port.js'
import { appendEach, WrongExpectedRevisionError } from '../../commands/event-store/port.js'
import type { WebhookDeliveryAttemptedData } from '../../domain/webhooks/events.js'
import type { WorkTables } from '../../migrations/work-tables.js'

export const deliveryStream = (deliveryId: number) => `webhook_delivery-${deliveryId}`

/** One finished attempt to put on record: its event, and whether it disables the webhook. */
export interface AttemptRecord {
  readonly data: WebhookDeliveryAttemptedData
  /** The WebhookDeliveryAttempted event, metadata included. */
  readonly event: NewEvent
  readonly disable: boolean
}

/** What became of a record: written now, or already on record (a worker that died after writing it). */
export type RecordOutcome =
  | { readonly kind: 'recorded' }
  | { readonly kind: 'already_recorded'; readonly last: WebhookDeliveryAttemptedData | undefined }

/** Most attempts one write carries (one statement each for the events and for the rows). */
const MAX_BATCH = 256

interface Waiting {
  readonly record: AttemptRecord
  resolve(outcome: RecordOutcome): void
  reject(error: unknown): void
}

/**
 * Group commit for delivery attempts. Each attempt must be on record (its event appended, then its work row
 * settled) before its slot is freed; done one by one that is two round trips and two commits per delivery,
 * which set the dispatcher's pace. Here attempts that finish while a write is in progress wait for the next
 * write, which takes them all: one appendEach (one statement and one commit on PostgreSQL) and one
 * statement that settles every row and the webhooks' failure counts. A lone attempt is written at once, so
 * batching adds no delay when the dispatcher is idle.
 *
 * Each event goes to its own delivery stream with the exact revision the attempt expects, so a conflict means
 * another worker already recorded this attempt (it died before settling the row): that record is adopted
 * instead of writing a second one. Writes are not atomic across deliveries; a crash between the append and
 * the settle leaves leased rows whose next claim finds the attempt on record and adopts it.
 */
export class AttemptRecorder {
  readonly #store: EventStore
  readonly #db: Kysely<WorkTables>
  readonly #clock: () => Date
  #waiting: Waiting[] = []
  #writing = false

  constructor(deps: { store: EventStore; db: Kysely<WorkTables>; clock: () => Date }) {
    this.#store = deps.store
    this.#db = deps.db
    this.#clock = deps.clock
  }

  /** Resolves once the attempt is on record and its row settled; rejects when the write failed (the lease then runs out and the attempt is retried). */
  record(record: AttemptRecord): Promise<RecordOutcome> {
    return new Promise<RecordOutcome>((resolve, reject) => {
      this.#waiting.push({ record, resolve, reject })
      if (!this.#writing) void this.#drain()
    })
  }

  /**
   * Writes batches until nothing waits. Pipelined: the next batch's events are appended while the previous
   * batch's rows are settled; settles run one after another in batch order, so a webhook's failure count
   * sees its attempts in the order they were made.
   */
  async #drain(): Promise<void> {
    this.#writing = true
    let settled: Promise<void> = Promise.resolve()
    try {
      do {
        while (this.#waiting.length > 0) {
          const batch = this.#waiting.splice(0, MAX_BATCH)
          let appended: StreamWriteOutcome[]
          try {
            appended = await this.#append(batch.map((w) => w.record))
          } catch (error) {
            for (const w of batch) w.reject(error)
            continue
          }
          settled = settled.then(() =>
            this.#settleBatch(
              batch.map((w) => w.record),
              appended,
            ).then(
              (outcomes) => {
                for (const [i, w] of batch.entries()) w.resolve(outcomes[i]!)
              },
              (error: unknown) => {
                for (const w of batch) w.reject(error)
              },
            ),
          )
        }
        await settled
      } while (this.#waiting.length > 0)
    } finally {
      this.#writing = false
    }
  }

  #append(records: readonly AttemptRecord[]): Promise<StreamWriteOutcome[]> {
    return appendEach(
      this.#store,
      records.map((r) => ({
        stream: deliveryStream(r.data.delivery_id),
        events: [r.event],
        expected: r.data.attempt === 1 ? 'no_stream' : BigInt(r.data.attempt - 2),
      })),
    )
  }

  async #settleBatch(records: readonly AttemptRecord[], appended: readonly StreamWriteOutcome[]): Promise<RecordOutcome[]> {
    const outcomes: RecordOutcome[] = []
    const written: AttemptRecord[] = []
    const adopted: WebhookDeliveryAttemptedData[] = []
    for (const [i, result] of appended.entries()) {
      const record = records[i]!
      if (result instanceof WrongExpectedRevisionError) {
        const last = await this.#lastRecorded(record.data.delivery_id)
        if (last) adopted.push(last)
        outcomes.push({ kind: 'already_recorded', last })
      } else {
        written.push(record)
        outcomes.push({ kind: 'recorded' })
      }
    }
    await this.#settle(written, adopted)
    return outcomes
  }

  async #lastRecorded(deliveryId: number): Promise<WebhookDeliveryAttemptedData | undefined> {
    let last: WebhookDeliveryAttemptedData | undefined
    for await (const recorded of this.#store.readStream(deliveryStream(deliveryId))) {
      const event = decode(recorded)
      if (event.type === 'WebhookDeliveryAttempted') last = event.data
    }
    return last
  }

  /**
   * One statement: every written attempt's webhook failure count (folded per webhook in attempt order: a
   * success resets it, each failure adds one), then every row, written or adopted. A row is only settled
   * while still leased and behind the attempt, so a late or repeated settle changes nothing.
   */
  async #settle(written: readonly AttemptRecord[], adopted: readonly WebhookDeliveryAttemptedData[]): Promise<void> {
    const rows = [...written.map((r) => r.data), ...adopted]
    if (rows.length === 0) return
    const now = this.#clock()
    const targets = foldTargets(written)
    await sql`
      with target as (
        update webhook_targets w
           set consecutive_failures = case when t.reset then t.failures else w.consecutive_failures + t.failures end,
               active = w.active and not t.disable
          from unnest(${targets.map((t) => t.webhookId)}::bigint[], ${targets.map((t) => t.reset)}::boolean[],
                      ${targets.map((t) => t.failures)}::int[], ${targets.map((t) => t.disable)}::boolean[]) as t(webhook_id, reset, failures, disable)
         where w.webhook_id = t.webhook_id
      )
      update webhook_deliveries d
         set attempts = v.attempt,
             status = v.status,
             next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at),
             lease_until = null,
             finished_at = case when v.final then ${now}::timestamptz else null end
        from unnest(${rows.map((r) => r.delivery_id)}::bigint[], ${rows.map((r) => r.attempt)}::int[],
                    ${rows.map((r) => (r.succeeded ? 'succeeded' : r.final ? 'failed' : 'pending'))}::text[],
                    ${rows.map((r) => r.next_attempt_at)}::timestamptz[], ${rows.map((r) => r.final)}::boolean[]) as v(id, attempt, status, next_attempt_at, final)
       where d.id = v.id and d.status = 'in_flight' and d.attempts < v.attempt`.execute(this.#db)
  }
}

/** Per webhook, what its attempts in this write do to its failure count, in the order they were made. */
export function foldTargets(
  records: readonly AttemptRecord[],
): { webhookId: number; reset: boolean; failures: number; disable: boolean }[] {
  const byWebhook = new Map<number, { webhookId: number; reset: boolean; failures: number; disable: boolean }>()
  for (const { data, disable } of records) {
    const target = byWebhook.get(data.webhook_id) ?? { webhookId: data.webhook_id, reset: false, failures: 0, disable: false }
    if (data.succeeded) {
      target.reset = true
      target.failures = 0
    } else target.failures += 1
    target.disable ||= disable
    byWebhook.set(data.webhook_id, target)
  }
  return [...byWebhook.values()]
}
