import { sql } from 'kysely'
import type { WebhookDeliveryAttemptedData } from '../../domain/webhooks/events.js'
import { occurredAt, type Projector } from '../projector.js'
import { eachEvent } from '../each-event.js'

/**
 * webhooks, webhook_delivery_records and webhook_delivery_attempts. Idempotent per event: settings are set
 * whole, attempts are keyed by (delivery, attempt), a delivery's row only moves to a later attempt, and the
 * webhook's failure count is the count the attempt recorded (set, never incremented) from its latest attempt.
 */
export const webhooksProjector: Projector = eachEvent({
  name: 'webhooks',
  handlers: {
    async WebhookRegistered(db, event) {
      const d = event.data
      const at = occurredAt(event)
      await db
        .insertInto('webhooks')
        .values({
          id: d.webhook_id,
          org_id: d.org_id,
          url: d.url,
          events: d.events,
          description: d.description,
          active: true,
          disabled_reason: null,
          secret_hint: d.secret_hint,
          created_at: at,
          updated_at: at,
          last_attempt_at: null,
          last_success_at: null,
          last_failure_at: null,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
    },
    async WebhookUpdated(db, event) {
      const d = event.data
      // Switching a webhook back on starts its failure count afresh (the dispatcher does the same).
      await db
        .updateTable('webhooks')
        .set({
          url: d.url,
          events: d.events,
          description: d.description,
          active: d.active,
          disabled_reason: d.active ? null : sql`case when active then 'update_webhook' else disabled_reason end`,
          failure_count: d.active ? sql`case when active then failure_count else 0 end` : sql`failure_count`,
          updated_at: occurredAt(event),
        })
        .where('id', '=', d.webhook_id)
        .execute()
    },
    async WebhookSecretRotated(db, event) {
      await db
        .updateTable('webhooks')
        .set({ secret_hint: event.data.secret_hint, updated_at: occurredAt(event) })
        .where('id', '=', event.data.webhook_id)
        .execute()
    },
    async WebhookDisabled(db, event) {
      await db
        .updateTable('webhooks')
        .set({ active: false, disabled_reason: `${event.data.consecutive_failures} consecutive failures`, updated_at: occurredAt(event) })
        .where('id', '=', event.data.webhook_id)
        .execute()
    },
    async WebhookDeleted(db, event) {
      const at = occurredAt(event)
      await db
        .updateTable('webhooks')
        .set({ active: false, deleted_at: sql`coalesce(deleted_at, ${at})`, updated_at: at })
        .where('id', '=', event.data.webhook_id)
        .execute()
    },
    async WebhookDeliveryAttempted(db, event) {
      const d = event.data as WebhookDeliveryAttemptedData
      const at = occurredAt(event)
      const orgId = event.metadata.org_id as number
      await db
        .insertInto('webhook_delivery_attempts')
        .values({
          delivery_id: d.delivery_id,
          attempt: d.attempt,
          org_id: orgId,
          succeeded: d.succeeded,
          status_code: d.status_code,
          error: d.error,
          duration_ms: d.duration_ms,
          attempted_at: at,
        })
        .onConflict((oc) => oc.columns(['delivery_id', 'attempt']).doNothing())
        .execute()
      const status = d.succeeded ? 'succeeded' : d.final ? 'failed' : 'retrying'
      const record = {
        status,
        attempts: d.attempt,
        last_status_code: d.status_code,
        last_error: d.error,
        next_attempt_at: d.next_attempt_at,
        last_attempt_at: at,
      }
      await db
        .insertInto('webhook_delivery_records')
        .values({
          id: d.delivery_id,
          webhook_id: d.webhook_id,
          org_id: orgId,
          event_number: d.event_number,
          event: d.event,
          client_id: d.client_id,
          requested: d.requested,
          first_attempt_at: at,
          ...record,
        })
        .onConflict((oc) => oc.column('id').doUpdateSet(record).where('webhook_delivery_records.attempts', '<', d.attempt))
        .execute()
      await db
        .updateTable('webhooks')
        .set({
          failure_count: d.consecutive_failures,
          last_attempt_at: at,
          ...(d.succeeded ? { last_success_at: at } : { last_failure_at: at }),
        })
        .where('id', '=', d.webhook_id)
        .where((eb) => eb.or([eb('last_attempt_at', 'is', null), eb('last_attempt_at', '<=', at)]))
        .execute()
    },
  },
})
