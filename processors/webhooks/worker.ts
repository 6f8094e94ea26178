import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import PQueue from 'p-queue'
import { toNewEvents } from '../../commands/aeo/append.js'
import type { CommandContext } from '../../commands/command-handler.js'
import { WrongExpectedRevisionError } from '../../commands/event-store/port.js'
import { unseal } from '../../commands/secrets/service-key.js'
import { disableWebhook } from '../../commands/webhooks.js'
import { afterAttempt } from '../../domain/webhooks/schedule.js'
import type { WebhookDeliveryAttemptedData } from '../../domain/webhooks/events.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { WebhookSender, type SendOutcome } from './sender.js'
import type { WebhookProcessorSettings } from './settings.js'

export const deliveryStream = (deliveryId: number) => `webhook_delivery-${deliveryId}`

/** A claimed delivery with everything its attempt needs. */
interface Claimed {
  id: number
  webhook_id: number
  org_id: number
  event_number: number
  requested: 'ping' | 'redelivery' | null
  attempts: number
  url: string
  host: string
  secret_sealed: string
  consecutive_failures: number
  name: string
  client_id: number | null
  data: unknown
  created_at: Date | string
}

/** How long a claim holds a delivery beyond the response timeout before another worker may take it over. */
const LEASE_MARGIN_MS = 60_000

/**
 * The dispatcher's worker: competing workers in any number of processes claim due deliveries from the work
 * table (FOR UPDATE SKIP LOCKED), send them (p-queue: `concurrency` at once, at most `perHostCap` per
 * destination host, and hosts at their cap are left out of the next claim), and record every attempt as an
 * event on `webhook_delivery-<id>` before updating the row. A claim is a lease: a worker that dies mid-attempt
 * leaves the row to be taken over when the lease ends, so a restart loses no delivery (at least once).
 *
 * Order: a webhook's event deliveries go out one at a time in event order — a delivery is claimable only
 * while no earlier delivery of the same webhook is unfinished (pending, retrying or in flight). A failing
 * receiver therefore holds back later events until the earlier one succeeds or exhausts its 8 attempts.
 * Pings and redeliveries are requested by a person and go out at once, outside that order.
 */
export class WebhookWorker implements Processor {
  readonly name = 'webhooks-dispatcher'
  readonly #deps: ProcessorDeps
  readonly #settings: WebhookProcessorSettings
  readonly #sender: WebhookSender
  readonly #queues = new Map<string, PQueue>()
  readonly #inHand = new Set<Promise<void>>()
  readonly #perHost = new Map<string, number>()
  #running = false
  #loop: Promise<void> | undefined
  #wake: (() => void) | undefined
  #nudged = false
  readonly #minBatch: number

  constructor(deps: ProcessorDeps, settings: WebhookProcessorSettings) {
    this.#deps = deps
    this.#settings = settings
    this.#minBatch = Math.max(1, Math.floor(settings.concurrency / 4))
    this.#sender = new WebhookSender({
      resolve: settings.policy.resolve,
      allow: settings.policy.allowList,
      timeoutMs: settings.timeoutMs,
      maxSockets: settings.perHostCap,
    })
  }

  start(): void {
    if (this.#running) return
    this.#running = true
    this.#loop = this.#claimLoop()
  }

  async stop(): Promise<void> {
    this.#running = false
    this.#wake?.()
    await this.#loop?.catch(() => undefined)
    this.#loop = undefined
    // Attempts in hand finish (each bounded by the response timeout) and are recorded.
    await Promise.allSettled([...this.#inHand])
    this.#sender.close()
  }

  /** New work may be due (this process's fan-out created deliveries): claim now rather than at the next poll. */
  nudge(): void {
    this.#nudged = true
    this.#wake?.()
  }

  async #claimLoop(): Promise<void> {
    while (this.#running) {
      const free = this.#settings.concurrency - this.#inHand.size
      // Claim in batches: a claim per finished attempt would make the claim query the bottleneck.
      if (free <= 0 || (this.#inHand.size > 0 && free < this.#minBatch)) {
        await Promise.race(this.#inHand)
        continue
      }
      this.#nudged = false
      let claimed: Claimed[] = []
      try {
        claimed = await this.claim(free)
      } catch (error) {
        this.#deps.log.error({ err: error }, 'webhooks: claiming deliveries failed')
      }
      for (const delivery of claimed) this.#hold(delivery)
      if (claimed.length < free && this.#running && !this.#nudged) await this.#pause(this.#settings.pollMs)
    }
  }

  #hold(delivery: Claimed): void {
    this.#perHost.set(delivery.host, (this.#perHost.get(delivery.host) ?? 0) + 1)
    let queue = this.#queues.get(delivery.host)
    if (!queue) {
      queue = new PQueue({ concurrency: this.#settings.perHostCap })
      this.#queues.set(delivery.host, queue)
    }
    const work = queue.add(() => this.attempt(delivery)).catch((error: unknown) => {
      this.#deps.log.error({ err: error, delivery_id: delivery.id }, 'webhooks: an attempt could not be recorded; its lease will run out and it is retried')
    })
    const tracked = work.finally(() => {
      this.#inHand.delete(tracked)
      const left = (this.#perHost.get(delivery.host) ?? 1) - 1
      if (left <= 0) {
        this.#perHost.delete(delivery.host)
        if (queue.size === 0 && queue.pending === 0) this.#queues.delete(delivery.host)
      } else this.#perHost.set(delivery.host, left)
      // A slot is free: claim again without waiting for the poll.
      this.#wake?.()
    })
    this.#inHand.add(tracked)
  }

  #pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#wake = undefined
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.#wake = done
    })
  }

  /** Claims up to `limit` due deliveries (leased), skipping rows other workers hold and hosts at their cap here. */
  async claim(limit: number): Promise<Claimed[]> {
    const now = this.#deps.write.clock()
    const leaseUntil = new Date(now.getTime() + this.#settings.timeoutMs + LEASE_MARGIN_MS)
    const saturated = [...this.#perHost].filter(([, n]) => n >= this.#settings.perHostCap).map(([host]) => host)
    const { rows } = await sql<Claimed>`
      with picked as (
        select d.id
          from webhook_deliveries d
          join webhook_targets w on w.webhook_id = d.webhook_id
         where ((d.status = 'pending' and d.next_attempt_at <= ${now}) or (d.status = 'in_flight' and d.lease_until < ${now}))
           and not w.deleted
           and (w.active or d.requested is not null)
           and not (w.host = any(${saturated}::text[]))
           and (d.requested is not null or not exists (
                 select 1 from webhook_deliveries e
                  where e.webhook_id = d.webhook_id and e.requested is null and e.finished_at is null and e.event_number < d.event_number))
         order by d.next_attempt_at, d.id
         limit ${limit}
         for update of d skip locked
      ), claimed as (
        update webhook_deliveries d set status = 'in_flight', lease_until = ${leaseUntil}
          from picked where d.id = picked.id
        returning d.id, d.webhook_id, d.org_id, d.event_number, d.requested, d.attempts
      )
      select c.*, w.url, w.host, w.secret_sealed, w.consecutive_failures, e.name, e.client_id, e.data, e.created_at
        from claimed c
        join webhook_targets w on w.webhook_id = c.webhook_id
        join webhook_events e on e.number = c.event_number`.execute(this.#deps.db)
    return rows.map((r) => ({ ...r, id: Number(r.id), webhook_id: Number(r.webhook_id), org_id: Number(r.org_id), event_number: Number(r.event_number) }))
  }

  /** One attempt: send, record the attempt event, then settle the row (and the webhook's failure count). */
  async attempt(delivery: Claimed): Promise<void> {
    const now = this.#deps.write.clock()
    const body = JSON.stringify({
      id: delivery.event_number,
      event: delivery.name,
      created_at: new Date(delivery.created_at).toISOString(),
      org_id: delivery.org_id,
      client_id: delivery.client_id === null ? null : Number(delivery.client_id),
      data: delivery.data,
    })
    let outcome: SendOutcome
    try {
      const secret = unseal(this.#settings.policy.serviceKey, delivery.secret_sealed)
      outcome = await this.#sender.send({ url: delivery.url, deliveryId: delivery.id, event: delivery.name, body, secret, unixSeconds: Math.floor(now.getTime() / 1000) })
    } catch (error) {
      // A secret this process cannot open (another service key): a failure on record, never the secret.
      outcome = { succeeded: false, statusCode: null, error: `not sent: ${(error as Error).message}`.slice(0, 500), durationMs: 0 }
    }
    const attempt = delivery.attempts + 1
    const decided = afterAttempt({
      attempt,
      succeeded: outcome.succeeded,
      consecutiveFailures: delivery.consecutive_failures,
      now,
      baseMs: this.#settings.backoffBaseMs,
      retries: delivery.requested !== 'ping',
    })
    const data: WebhookDeliveryAttemptedData = {
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      event_number: delivery.event_number,
      event: delivery.name,
      client_id: delivery.client_id === null ? null : Number(delivery.client_id),
      attempt,
      succeeded: outcome.succeeded,
      status_code: outcome.statusCode,
      error: outcome.error === null ? null : outcome.error.slice(0, 500),
      duration_ms: outcome.durationMs,
      final: decided.final,
      next_attempt_at: decided.nextAttemptAt?.toISOString() ?? null,
      consecutive_failures: decided.consecutiveFailures,
      requested: delivery.requested,
    }
    const context = this.#context()
    try {
      const events = toNewEvents(this.#deps.write, context, [{ type: 'WebhookDeliveryAttempted', data }], delivery.org_id)
      await this.#deps.store.append(deliveryStream(delivery.id), events, attempt === 1 ? 'no_stream' : BigInt(attempt - 2))
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error
      // A worker that died after recording this attempt: adopt what it recorded instead of recording twice.
      return this.#adoptRecorded(delivery)
    }
    // One statement (atomic, one round trip): the webhook's failure count and the delivery's row.
    await sql`
      with target as (
        update webhook_targets
           set consecutive_failures = case when ${outcome.succeeded} then 0 else consecutive_failures + 1 end,
               active = active and not ${decided.disable}
         where webhook_id = ${delivery.webhook_id}
      )
      ${settleStatement(delivery.id, data, now)}`.execute(this.#deps.db)
    if (decided.disable) {
      await disableWebhook(this.#deps.write, context, { webhookId: delivery.webhook_id, consecutiveFailures: decided.consecutiveFailures })
    }
  }

  async #adoptRecorded(delivery: Claimed): Promise<void> {
    let last: WebhookDeliveryAttemptedData | undefined
    for await (const event of this.#deps.store.readStream(deliveryStream(delivery.id))) last = event.data as WebhookDeliveryAttemptedData
    if (last) await settleRow(this.#deps.db, delivery.id, last, this.#deps.write.clock())
  }

  #context(): CommandContext {
    return { actor: { kind: 'system', id: 'webhook-dispatcher' }, requestId: null, correlationId: randomUUID(), causationId: null }
  }
}

/** The work row after an attempt: done (succeeded or failed for good) or pending again until next_attempt_at. */
async function settleRow(db: any, deliveryId: number, data: WebhookDeliveryAttemptedData, now: Date): Promise<void> {
  await settleStatement(deliveryId, data, now).execute(db)
}

function settleStatement(deliveryId: number, data: WebhookDeliveryAttemptedData, now: Date) {
  return sql`
    update webhook_deliveries
       set attempts = ${data.attempt},
           status = ${data.succeeded ? 'succeeded' : data.final ? 'failed' : 'pending'},
           next_attempt_at = coalesce(${data.next_attempt_at}::timestamptz, next_attempt_at),
           lease_until = null,
           finished_at = ${data.final ? now : null}
     where id = ${deliveryId} and status = 'in_flight' and attempts < ${data.attempt}`
}
