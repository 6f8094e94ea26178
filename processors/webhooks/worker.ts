import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import PQueue from 'p-queue'
import { toNewEvents } from '../../commands/command-handler.js'
import type { CommandContext } from '../../commands/command-handler.js'
import { unseal } from '../../commands/secrets/service-key.js'
import { disableWebhook } from '../../commands/webhooks.js'
import { afterAttempt } from '../../domain/webhooks/schedule.js'
import type { WebhookDeliveryAttemptedData } from '../../domain/webhooks/events.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import { AttemptRecorder } from './attempt-recorder.js'
import { WebhookSender, type SendOutcome } from './sender.js'
import type { WebhookProcessorSettings } from './settings.js'

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
  readonly #recorder: AttemptRecorder
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
    this.#recorder = new AttemptRecorder({ store: deps.store, db: deps.db, clock: deps.write.clock })
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
    const work = queue
      .add(() => this.attempt(delivery))
      .catch((error: unknown) => {
        this.#deps.log.error(
          { err: error, delivery_id: delivery.id },
          'webhooks: an attempt could not be recorded; its lease will run out and it is retried',
        )
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
    // Due: pending and its time has come, or in flight with its lease run out (the worker holding it died).
    const due = (d: string) =>
      sql`((${sql.raw(d)}.status = 'pending' and ${sql.raw(d)}.next_attempt_at <= ${now}) or (${sql.raw(d)}.status = 'in_flight' and ${sql.raw(d)}.lease_until < ${now}))`
    // Event deliveries are taken only at the head of their webhook's queue (its earliest unfinished one), found
    // per webhook with work due through webhook_deliveries_open: a few index probes per webhook, however many
    // deliveries wait behind the heads. Pings and redeliveries go out at once, outside that order.
    const { rows } = await sql<Claimed>`
      with waiting as (
        select distinct d.webhook_id from webhook_deliveries d where d.requested is null and ${due('d')}
      ), candidates as (
        select h.id
          from waiting
          join webhook_targets w on w.webhook_id = waiting.webhook_id
          cross join lateral (
            select o.id from webhook_deliveries o
             where o.webhook_id = waiting.webhook_id and o.requested is null and o.finished_at is null
             order by o.event_number
             limit 1
          ) h
         where w.active and not w.deleted and not (w.host = any(${saturated}::text[]))
        union all
        select d.id
          from webhook_deliveries d
          join webhook_targets w on w.webhook_id = d.webhook_id
         where d.requested is not null and ${due('d')} and not w.deleted and not (w.host = any(${saturated}::text[]))
      ), picked as (
        select d.id
          from webhook_deliveries d
         where d.id in (select id from candidates) and ${due('d')}
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
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      webhook_id: Number(r.webhook_id),
      org_id: Number(r.org_id),
      event_number: Number(r.event_number),
    }))
  }

  /** One attempt: send, then put it on record (its event, its row and the webhook's failure count: attempt-recorder.ts). */
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
      outcome = await this.#sender.send({
        url: delivery.url,
        deliveryId: delivery.id,
        event: delivery.name,
        body,
        secret,
        unixSeconds: Math.floor(now.getTime() / 1000),
      })
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
    const event = toNewEvents(this.#deps.write, context, [{ type: 'WebhookDeliveryAttempted', data }], delivery.org_id)[0]!
    const recorded = await this.#recorder.record({ data, event, disable: decided.disable })
    // An attempt another worker already recorded (it died before settling) was adopted as it stands.
    if (recorded.kind === 'recorded' && decided.disable) {
      await disableWebhook(this.#deps.write, context, { webhookId: delivery.webhook_id, consecutiveFailures: decided.consecutiveFailures })
    }
  }

  #context(): CommandContext {
    return { actor: { kind: 'system', id: 'webhook-dispatcher' }, requestId: null, correlationId: randomUUID(), causationId: null }
  }
}
