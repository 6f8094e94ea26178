import { randomBytes } from 'node:crypto'
import dns from 'node:dns'
import { NotFoundError, DomainError } from '../domain/shared/errors.js'
import { checkWebhookUrl, hostAllowedByName, refusalOfAddress, type AllowList } from '../domain/webhooks/url-policy.js'
import { webhook, type WebhookCommand, type WebhookState } from '../domain/webhooks/webhook.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'
import { seal, type ServiceKey } from './secrets/service-key.js'

/** Resolves a host name to its addresses (all of them): dns.lookup by default, a fixed map in tests. */
export type Resolver = (host: string) => Promise<string[]>

export const systemResolver: Resolver = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** What the webhook commands need besides the log: the service key and the URL policy. */
export interface WebhookPolicy {
  readonly serviceKey: ServiceKey
  readonly allowList: AllowList
  readonly resolve: Resolver
}

export type WebhookDeps = WriteDeps & { readonly webhooks: WebhookPolicy }

/** Signing secrets: `whsec_` and 32 random bytes; shown once, sealed in the log. */
export const mintWebhookSecret = () => `whsec_${randomBytes(32).toString('base64url')}`
/** Enough for a person to recognise the secret, never enough to use it. */
export const secretHint = (secret: string) => `${secret.slice(0, 10)}…`

/**
 * The URL policy with DNS: the pure check, then every address the name resolves to (a name that does not
 * resolve is refused too: there would be nothing to deliver to). The dispatcher checks again at connect time.
 */
export async function assertWebhookUrl(policy: WebhookPolicy, text: string): Promise<string> {
  const checked = checkWebhookUrl(text, policy.allowList)
  if (checked.literal || hostAllowedByName(checked.host, policy.allowList)) return checked.url
  let addresses: string[]
  try {
    addresses = await policy.resolve(checked.host)
  } catch {
    addresses = []
  }
  if (addresses.length === 0)
    throw new DomainError('webhook_url_refused', 'The webhook URL is not allowed', `${checked.host} does not resolve`)
  for (const address of addresses) {
    const reason = refusalOfAddress(address, policy.allowList)
    if (reason !== null)
      throw new DomainError(
        'webhook_url_refused',
        'The webhook URL is not allowed',
        `${checked.host} resolves to a refused address: ${reason}`,
      )
  }
  return checked.url
}

export interface WebhookOutcome {
  readonly state: WebhookState
  readonly position: Position | null
}

function run(deps: WriteDeps, context: CommandContext, webhookId: number, command: WebhookCommand): Promise<WebhookOutcome> {
  return handleCommand(deps, { aggregate: webhook, id: webhookId, command, context }).catch((error: unknown) => {
    // decide does not know the id of a webhook that does not exist: name it here.
    if (error instanceof NotFoundError) throw new NotFoundError('webhook', webhookId)
    throw error
  })
}

export async function registerWebhook(
  deps: WebhookDeps,
  context: CommandContext,
  input: { orgId: number; url: string; events: readonly string[] | null; description: string | null },
): Promise<WebhookOutcome & { id: number; secret: string }> {
  const url = await assertWebhookUrl(deps.webhooks, input.url)
  const id = await deps.ids.next('webhook')
  const secret = mintWebhookSecret()
  const outcome = await run(deps, context, id, {
    type: 'RegisterWebhook',
    webhook_id: id,
    org_id: input.orgId,
    url,
    events: input.events,
    description: input.description,
    secret_sealed: seal(deps.webhooks.serviceKey, secret),
    secret_hint: secretHint(secret),
  })
  return { ...outcome, id, secret }
}

export async function updateWebhook(
  deps: WebhookDeps,
  context: CommandContext,
  input: {
    callerOrgId: number | null
    webhookId: number
    url?: string
    events?: readonly string[] | null
    description?: string | null
    active?: boolean
  },
): Promise<WebhookOutcome> {
  const url = input.url === undefined ? undefined : await assertWebhookUrl(deps.webhooks, input.url)
  return run(deps, context, input.webhookId, {
    type: 'UpdateWebhook',
    caller_org_id: input.callerOrgId,
    ...(url === undefined ? {} : { url }),
    ...(input.events === undefined ? {} : { events: input.events }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.active === undefined ? {} : { active: input.active }),
  })
}

export async function rotateWebhookSecret(
  deps: WebhookDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; webhookId: number },
): Promise<WebhookOutcome & { secret: string }> {
  const secret = mintWebhookSecret()
  const outcome = await run(deps, context, input.webhookId, {
    type: 'RotateWebhookSecret',
    caller_org_id: input.callerOrgId,
    secret_sealed: seal(deps.webhooks.serviceKey, secret),
    secret_hint: secretHint(secret),
  })
  return { ...outcome, secret }
}

export function deleteWebhook(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; webhookId: number },
): Promise<WebhookOutcome> {
  return run(deps, context, input.webhookId, { type: 'DeleteWebhook', caller_org_id: input.callerOrgId })
}

/** test_webhook: a `ping` delivery, with its id allocated here so the caller can find it in the listing. */
export async function pingWebhook(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; webhookId: number },
): Promise<WebhookOutcome & { deliveryId: number }> {
  const deliveryId = await deps.ids.next('webhook_delivery')
  const outcome = await run(deps, context, input.webhookId, {
    type: 'PingWebhook',
    caller_org_id: input.callerOrgId,
    delivery_id: deliveryId,
  })
  return { ...outcome, deliveryId }
}

/** redeliver_webhook: the delivery's event again, as a new delivery to the same webhook. */
export async function redeliverWebhook(
  deps: WriteDeps,
  context: CommandContext,
  input: { callerOrgId: number | null; delivery: { id: number; webhookId: number; eventNumber: number } | undefined; deliveryId: number },
): Promise<WebhookOutcome & { deliveryId: number }> {
  if (!input.delivery) throw new NotFoundError('delivery', input.deliveryId)
  const deliveryId = await deps.ids.next('webhook_delivery')
  const outcome = await run(deps, context, input.delivery.webhookId, {
    type: 'RedeliverWebhook',
    caller_org_id: input.callerOrgId,
    delivery_id: deliveryId,
    of_delivery_id: input.delivery.id,
    event_number: input.delivery.eventNumber,
  })
  return { ...outcome, deliveryId }
}

/** The dispatcher's verdict after too many consecutive failures (nothing when the webhook is already off). */
export function disableWebhook(
  deps: WriteDeps,
  context: CommandContext,
  input: { webhookId: number; consecutiveFailures: number },
): Promise<WebhookOutcome> {
  return run(deps, context, input.webhookId, { type: 'DisableWebhook', consecutive_failures: input.consecutiveFailures })
}
