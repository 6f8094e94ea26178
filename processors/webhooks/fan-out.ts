import { sql, type Kysely, type Transaction } from 'kysely'
import type { DecodedEvent } from '../../commands/event-store/decode.js'
import { PUBLIC_EVENT_BY_SOURCE } from '../../domain/api-platform/public-events.js'
import { isEventType, type EventType } from '../../domain/events.js'
import { webhookEventSchemas } from '../../domain/webhooks/events.js'
import { orgIdOf } from '../../projections/projector.js'
import { subscriptionProcessor } from '../subscription.js'
import type { Processor, ProcessorDeps } from '../runtime.js'
import type { WebhookProcessorSettings } from './settings.js'
import type { WorkTables } from '../../migrations/work-tables.js'

/**
 * The event types the fan-out follows: every public event's sources, and the webhooks' own events. A source
 * the domain does not record (yet) is left out: nothing in the log can have it.
 */
export const FAN_OUT_TYPES: ReadonlySet<EventType> = new Set(
  [...PUBLIC_EVENT_BY_SOURCE.keys(), ...Object.keys(webhookEventSchemas)].filter(isEventType),
)

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase()

/**
 * The dispatcher's process manager: a subscription to the log (its own checkpoint, one process at a time)
 * that keeps webhook_targets in log order and turns each webhook-visible event into a numbered entry of
 * webhook_events and one delivery per active webhook of the organization subscribed to it — so an event is
 * delivered to exactly the webhooks that existed, active, when it happened. Each event is handled in one
 * transaction and at-least-once: a redelivered event inserts nothing twice (unique event id, unique
 * (webhook, event)). `onWork` wakes this process's worker.
 */
export function fanOutProcessor(deps: ProcessorDeps, settings: WebhookProcessorSettings, onWork: () => void): Processor {
  return subscriptionProcessor({
    name: 'webhooks-fan-out',
    store: deps.store,
    db: deps.db,
    log: deps.log,
    types: FAN_OUT_TYPES,
    async handle(event) {
      const now = deps.write.clock()
      const work = await deps.db.transaction().execute((tx) => applyEvent(tx, event, now, settings))
      if (work) onWork()
    },
  })
}

/** Applies one event; true when it created deliveries. Exported for the projection-style tests (each event twice). */
export async function applyEvent(
  tx: Transaction<WorkTables> | Kysely<WorkTables>,
  event: DecodedEvent,
  now: Date,
  settings: Pick<WebhookProcessorSettings, 'baseUrl'>,
): Promise<boolean> {
  switch (event.type) {
    case 'WebhookRegistered': {
      const d = event.data
      await tx
        .insertInto('webhook_targets')
        .values({
          webhook_id: d.webhook_id,
          org_id: d.org_id,
          url: d.url,
          host: hostOf(d.url),
          events: d.events,
          active: true,
          secret_sealed: d.secret_sealed,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('webhook_id').doNothing())
        .execute()
      return false
    }
    case 'WebhookUpdated': {
      const d = event.data
      await tx
        .updateTable('webhook_targets')
        .set({
          url: d.url,
          host: hostOf(d.url),
          events: d.events,
          // Switched back on: its failure count starts afresh.
          consecutive_failures: d.active ? sql`case when active then consecutive_failures else 0 end` : sql`consecutive_failures`,
          active: d.active,
          updated_at: now,
        })
        .where('webhook_id', '=', d.webhook_id)
        .execute()
      return d.active
    }
    case 'WebhookSecretRotated': {
      const d = event.data
      await tx
        .updateTable('webhook_targets')
        .set({ secret_sealed: d.secret_sealed, updated_at: now })
        .where('webhook_id', '=', d.webhook_id)
        .execute()
      return false
    }
    case 'WebhookDisabled': {
      const d = event.data
      await tx.updateTable('webhook_targets').set({ active: false, updated_at: now }).where('webhook_id', '=', d.webhook_id).execute()
      return false
    }
    case 'WebhookDeleted': {
      const d = event.data
      await tx
        .updateTable('webhook_targets')
        .set({ active: false, deleted: true, updated_at: now })
        .where('webhook_id', '=', d.webhook_id)
        .execute()
      // Nothing more goes to a deleted webhook; an attempt already in flight finishes and is recorded.
      await tx
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', finished_at: now })
        .where('webhook_id', '=', d.webhook_id)
        .where('status', '=', 'pending')
        .execute()
      return false
    }
    case 'WebhookRedeliveryRequested': {
      const d = event.data
      return insertRequested(tx, {
        id: d.delivery_id,
        webhookId: d.webhook_id,
        orgId: orgIdOf(event),
        eventNumber: d.event_number,
        requested: 'redelivery',
        now,
      })
    }
    default: {
      const number = await recordPublicEvent(tx, event, settings)
      if (number === null) return false
      if (event.type === 'WebhookPingRequested') {
        const d = event.data
        return insertRequested(tx, {
          id: d.delivery_id,
          webhookId: d.webhook_id,
          orgId: orgIdOf(event),
          eventNumber: number.number,
          requested: 'ping',
          now,
        })
      }
      return fanOut(tx, number, event.metadata.org_id ?? null, now)
    }
  }
}

/** The event's numbered entry in webhook_events (the existing one when the event comes again); null: not a public event. */
async function recordPublicEvent(
  tx: Kysely<WorkTables>,
  event: DecodedEvent,
  settings: Pick<WebhookProcessorSettings, 'baseUrl'>,
): Promise<{ number: number; name: string } | null> {
  const publicEvent = PUBLIC_EVENT_BY_SOURCE.get(event.type)
  if (!publicEvent) return null
  const built = publicEvent.build(event, { baseUrl: settings.baseUrl })
  const orgId = event.metadata.org_id ?? null
  const createdAt = event.metadata.occurred_at ?? event.recordedAt.toISOString()
  const inserted = await tx
    .insertInto('webhook_events')
    .values({
      event_id: event.id,
      org_id: orgId,
      name: publicEvent.name,
      client_id: built.client_id,
      data: JSON.stringify(built.data),
      created_at: createdAt,
      // A ping is between the service and one webhook, not an event of the organization.
      in_feed: publicEvent.name !== 'ping',
    })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .returning('number')
    .executeTakeFirst()
  const number =
    inserted?.number ??
    (await tx.selectFrom('webhook_events').select('number').where('event_id', '=', event.id).executeTakeFirstOrThrow()).number
  return { number: Number(number), name: publicEvent.name }
}

/** One delivery per active webhook subscribed to the event (org null: a platform event, to every organization's). */
async function fanOut(tx: Kysely<WorkTables>, event: { number: number; name: string }, orgId: number | null, now: Date): Promise<boolean> {
  const result = await sql`
    insert into webhook_deliveries (id, webhook_id, org_id, event_number, requested, status, attempts, next_attempt_at, created_at)
    select nextval('webhook_delivery_id_seq'), t.webhook_id, t.org_id, ${event.number}, null, 'pending', 0, ${now}, ${now}
      from webhook_targets t
     where t.active and not t.deleted
       and (${orgId}::bigint is null or t.org_id = ${orgId}::bigint)
       and (t.events is null or ${event.name} = any(t.events))
     order by t.webhook_id
    on conflict do nothing`.execute(tx)
  return Number(result.numAffectedRows ?? 0) > 0
}

async function insertRequested(
  tx: Kysely<WorkTables>,
  input: { id: number; webhookId: number; orgId: number; eventNumber: number; requested: 'ping' | 'redelivery'; now: Date },
): Promise<boolean> {
  const result = await tx
    .insertInto('webhook_deliveries')
    .values({
      id: input.id,
      webhook_id: input.webhookId,
      org_id: input.orgId,
      event_number: input.eventNumber,
      requested: input.requested,
      status: 'pending',
      attempts: 0,
      next_attempt_at: input.now,
      created_at: input.now,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}
