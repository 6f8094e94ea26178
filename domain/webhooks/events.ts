import { z } from 'zod'
import { Id } from '../shared/values.js'

/**
 * A webhook is one stream, `webhook-<id>`: registration, changes, secret rotations, the disable after
 * consecutive failures, and the requests a person makes of it (a ping, a redelivery), so each is decided
 * against the webhook's current state. Its delivery attempts live on `webhook_delivery-<delivery_id>`
 * (small streams, so recording an attempt never reloads a webhook's whole history).
 *
 * The signing secret never enters the log in plaintext: `secret_sealed` is the AES-256-GCM ciphertext under
 * the service key (commands/secrets/), and `secret_hint` the first characters a person can recognise.
 */
const Url = z.string().min(1).max(2000)
/** Public event names (domain/api-platform/public-events.ts); null: every event. */
const EventNames = z.array(z.string().min(1).max(100)).max(50).nullable()
const Description = z.string().max(500).nullable()
const Sealed = z.string().min(1).max(2000)
const Hint = z.string().max(16)

export const WebhookRegistered = z.object({
  webhook_id: Id,
  org_id: Id,
  url: Url,
  events: EventNames,
  description: Description,
  secret_sealed: Sealed,
  secret_hint: Hint,
})

/** The webhook's settings after the change, whole (a projector sets them; nothing is merged on replay). */
export const WebhookUpdated = z.object({ webhook_id: Id, url: Url, events: EventNames, description: Description, active: z.boolean() })

export const WebhookSecretRotated = z.object({ webhook_id: Id, secret_sealed: Sealed, secret_hint: Hint })

export const WebhookDeleted = z.object({ webhook_id: Id })

/** Disabled by the dispatcher after `consecutive_failures` failed attempts in a row. */
export const WebhookDisabled = z.object({ webhook_id: Id, consecutive_failures: z.number().int().min(0) })

/** test_webhook: the dispatcher sends one `ping` delivery for it. */
export const WebhookPingRequested = z.object({ webhook_id: Id, delivery_id: Id })

/** redeliver_webhook: the event of `of_delivery_id` is sent again, as a new delivery. */
export const WebhookRedeliveryRequested = z.object({ webhook_id: Id, delivery_id: Id, of_delivery_id: Id, event_number: Id })

/**
 * One attempt of one delivery (stream `webhook_delivery-<delivery_id>`, revision attempt − 1). `final`: no
 * further attempt follows (it succeeded, or it was the last one); otherwise `next_attempt_at` says when.
 * `consecutive_failures` is the webhook's count after this attempt (0 after a success), as the dispatcher
 * keeps it, so the read model sets it rather than counts (a replay changes nothing).
 */
export const WebhookDeliveryAttempted = z.object({
  delivery_id: Id,
  webhook_id: Id,
  event_number: Id,
  event: z.string(),
  client_id: Id.nullable(),
  attempt: z.number().int().positive(),
  succeeded: z.boolean(),
  status_code: z.number().int().nullable(),
  error: z.string().max(500).nullable(),
  duration_ms: z.number().int().min(0),
  final: z.boolean(),
  next_attempt_at: z.string().nullable(),
  consecutive_failures: z.number().int().min(0),
  /** Set for a redelivery or a ping: sent outside the webhook's event order. */
  requested: z.enum(['ping', 'redelivery']).nullable(),
})

export const webhookEventSchemas = {
  WebhookRegistered,
  WebhookUpdated,
  WebhookSecretRotated,
  WebhookDeleted,
  WebhookDisabled,
  WebhookPingRequested,
  WebhookRedeliveryRequested,
} as const

export const webhookDeliveryEventSchemas = { WebhookDeliveryAttempted } as const

type Schemas = typeof webhookEventSchemas
export type WebhookEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
export type WebhookDeliveryAttemptedData = z.infer<typeof WebhookDeliveryAttempted>
