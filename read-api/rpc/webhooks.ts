import { z } from 'zod'
import {
  deleteWebhook,
  pingWebhook,
  redeliverWebhook,
  registerWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookDeps,
} from '../../commands/webhooks.js'
import { Id } from '../../domain/shared/values.js'
import { SUBSCRIBABLE_EVENTS } from '../../domain/webhooks/subscribable.js'
import { MAX_ATTEMPTS } from '../../domain/webhooks/schedule.js'
import { deliveriesOf, deliveryOf, webhookOf, webhooksOf } from '../../projections/webhooks/queries.js'
import { requireOrgId, requireOwnerLevel } from '../caller.js'
import { ApiError } from '../errors.js'
import { rpc, type RpcContext } from '../registry.js'
import { ClientId, DeliveryId, WebhookId } from './ids.js'

const domain = 'webhooks'

function webhookDeps(ctx: RpcContext<unknown>): WebhookDeps {
  const policy = ctx.settings.webhooks
  if (!policy) throw new ApiError('service_unavailable', 'webhooks are not configured in this process (no service key)')
  return { ...ctx.write, webhooks: policy }
}

const Url = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe('https URL of your receiver (http only for localhost); must resolve to public addresses')
const Events = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(50)
  .nullable()
  .describe(`Event names to receive (${SUBSCRIBABLE_EVENTS.join(', ')}); null or absent: every event`)
const Description = z.string().trim().max(500).nullable().describe('Free text for people, e.g. what the receiver does')

const WebhookView = z.object({
  id: Id,
  url: z.string(),
  events: z.array(z.string()).nullable().describe('null: every event'),
  description: z.string().nullable(),
  active: z.boolean().describe('false: switched off (update_webhook active false) or disabled after 100 consecutive failures'),
  disabled_reason: z.string().nullable().describe('Why it is inactive, when it is'),
  failure_count: z.number().int().describe('Consecutive failed attempts; a success resets it; 100 disable the webhook'),
  last_success_at: z.string().nullable(),
  last_failure_at: z.string().nullable(),
  secret_hint: z.string().describe('The first characters of the signing secret; the secret itself is never shown again'),
  created_at: z.string(),
  updated_at: z.string(),
})

const ShownSecret = z.string().describe('The signing secret: shown this once; store it to verify X-Service-Signature')

const AttemptView = z.object({
  attempt: z.number().int(),
  succeeded: z.boolean(),
  status_code: z.number().int().nullable().describe("The receiver's HTTP status; null when no answer came (timeout, refused, policy)"),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  attempted_at: z.string(),
})

const DeliveryView = z.object({
  id: Id.describe('The delivery id (X-Service-Delivery)'),
  webhook_id: WebhookId,
  event: z.string(),
  event_number: Id.describe("The body's id: the same for every delivery of this event"),
  client_id: ClientId.nullable(),
  requested: z
    .enum(['ping', 'redelivery'])
    .nullable()
    .describe('Sent on request (test_webhook, redeliver_webhook) rather than by an event'),
  status: z
    .enum(['retrying', 'succeeded', 'failed'])
    .describe(`retrying: failed, another attempt at next_attempt_at; failed: all ${MAX_ATTEMPTS} attempts failed`),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string().describe('The first attempt'),
  last_attempt_at: z.string(),
  attempt_log: z.array(AttemptView).describe('Every attempt, oldest first'),
})

const OneWebhook = z.strictObject({ webhook_id: WebhookId })

export const webhookRpcs = [
  rpc({
    name: 'register_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Register a URL to receive signed event deliveries (POST {id, event, created_at, org_id, client_id, data}, X-Service-Signature t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>). Returns {id, url, events, secret}: the secret is shown once. Needs the write scope and owner level (an OAuth token must act for an owner); a platform key passes org_id.',
    example: {
      params: {
        url: 'https://hooks.northwind.example/rankrelay',
        events: ['job.completed', 'aeo.report.saved'],
        description: 'Posts finished reports to the team channel',
      },
    },
    params: z.strictObject({ url: Url, events: Events.optional(), description: Description.optional() }),
    result: z.object({
      id: Id,
      url: z.string(),
      events: z.array(z.string()).nullable(),
      description: z.string().nullable(),
      secret: ShownSecret,
      secret_hint: z.string(),
    }),
    async handler(ctx) {
      const p = ctx.params
      requireOwnerLevel(ctx.caller, 'register a webhook')
      const created = await registerWebhook(webhookDeps(ctx), ctx.command, {
        orgId: requireOrgId(ctx.orgId),
        url: p.url,
        events: p.events ?? null,
        description: p.description || null,
      })
      const s = created.state
      return {
        id: created.id,
        url: s.url,
        events: s.events === null ? null : [...s.events],
        description: s.description,
        secret: created.secret,
        secret_hint: `${created.secret.slice(0, 10)}…`,
      }
    },
  }),
  rpc({
    name: 'list_webhooks',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      "The organization's webhooks with their state (active, consecutive failures, last success and failure) and a hint of the secret, never the secret.",
    example: { params: {} },
    params: z.strictObject({}),
    result: z.array(WebhookView),
    handler: async (ctx) => webhooksOf(ctx.read, ctx.orgId),
  }),
  rpc({
    name: 'update_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Change a webhook: url, events (null: every event), description, active (true switches a disabled webhook back on and resets its failure count). Fields left out keep their value. Returns the webhook.',
    example: { params: { webhook_id: 5, events: null, active: true } },
    params: z.strictObject({
      webhook_id: WebhookId,
      url: Url.optional(),
      events: Events.optional(),
      description: Description.optional(),
      active: z
        .boolean()
        .optional()
        .describe('true switches a disabled webhook back on and resets its failure count; false stops deliveries'),
    }),
    result: WebhookView,
    async handler(ctx) {
      const p = ctx.params
      await updateWebhook(webhookDeps(ctx), ctx.command, {
        callerOrgId: ctx.orgId,
        webhookId: p.webhook_id,
        ...(p.url === undefined ? {} : { url: p.url }),
        ...(p.events === undefined ? {} : { events: p.events }),
        ...(p.description === undefined ? {} : { description: p.description || null }),
        ...(p.active === undefined ? {} : { active: p.active }),
      })
      await ctx.settle()
      return webhookOf(ctx.read, ctx.orgId, p.webhook_id)
    },
  }),
  rpc({
    name: 'rotate_webhook_secret',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Replace the signing secret. The new secret is returned once and signs every delivery from now on, retries of earlier events included.',
    example: { params: { webhook_id: 5 } },
    params: OneWebhook,
    result: z.object({ id: Id, secret: ShownSecret, secret_hint: z.string() }),
    async handler(ctx) {
      const rotated = await rotateWebhookSecret(webhookDeps(ctx), ctx.command, { callerOrgId: ctx.orgId, webhookId: ctx.params.webhook_id })
      return { id: ctx.params.webhook_id, secret: rotated.secret, secret_hint: `${rotated.secret.slice(0, 10)}…` }
    },
  }),
  rpc({
    name: 'delete_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary: 'Delete a webhook: nothing more is sent to it, pending retries included. Its deliveries stay listed.',
    example: { params: { webhook_id: 5 } },
    params: OneWebhook,
    result: z.object({ id: Id, deleted: z.literal(true) }),
    async handler(ctx) {
      await deleteWebhook(ctx.write, ctx.command, { callerOrgId: ctx.orgId, webhookId: ctx.params.webhook_id })
      return { id: ctx.params.webhook_id, deleted: true as const }
    },
  }),
  rpc({
    name: 'test_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      'Send a ping event to the webhook now (one attempt, whatever its events list, ahead of any queued deliveries). Returns the delivery id; list_webhook_deliveries shows the outcome within seconds.',
    example: { params: { webhook_id: 5 } },
    params: OneWebhook,
    result: z.object({ delivery_id: DeliveryId, event: z.literal('ping') }),
    async handler(ctx) {
      const sent = await pingWebhook(ctx.write, ctx.command, { callerOrgId: ctx.orgId, webhookId: ctx.params.webhook_id })
      return { delivery_id: sent.deliveryId, event: 'ping' as const }
    },
  }),
  rpc({
    name: 'list_webhook_deliveries',
    domain,
    access: 'read',
    orgScoped: true,
    summary:
      'Deliveries, newest first (optionally of one webhook), each with every attempt: status, attempts, last_status_code, last_error, next_attempt_at and the attempt log. A delivery appears with its first attempt.',
    example: { params: { webhook_id: 5 } },
    params: z.strictObject({ webhook_id: WebhookId.optional().describe('Only deliveries to this webhook (default every webhook)') }),
    paginated: { maxLimit: 500, defaultLimit: 50 },
    result: z.array(DeliveryView),
    async handler(ctx) {
      if (ctx.params.webhook_id !== undefined) await webhookOf(ctx.read, ctx.orgId, ctx.params.webhook_id, { includeDeleted: true })
      return deliveriesOf(ctx.read, {
        orgId: ctx.orgId,
        webhookId: ctx.params.webhook_id,
        limit: ctx.page?.limit ?? 50,
        offset: ctx.page?.offset ?? 0,
      })
    },
  }),
  rpc({
    name: 'redeliver_webhook',
    domain,
    access: 'write',
    orgScoped: true,
    summary:
      "Send a delivery's event again, as a new delivery with the same body id (event_number) to the same webhook, at once and with the full retry schedule. Returns the new delivery id.",
    example: { params: { delivery_id: 3051 } },
    params: z.strictObject({ delivery_id: DeliveryId }),
    result: z.object({ delivery_id: DeliveryId, of_delivery_id: Id }),
    async handler(ctx) {
      const found = await deliveryOf(ctx.read, ctx.orgId, ctx.params.delivery_id)
      const sent = await redeliverWebhook(ctx.write, ctx.command, {
        callerOrgId: ctx.orgId,
        deliveryId: ctx.params.delivery_id,
        delivery: found && { id: found.id, webhookId: found.webhook_id, eventNumber: found.event_number },
      })
      return { delivery_id: sent.deliveryId, of_delivery_id: ctx.params.delivery_id }
    },
  }),
]
