import type { Aggregate } from '../shared/aggregate.js'
import { DomainError, NotFoundError } from '../shared/errors.js'
import { assertNever } from '../shared/values.js'
import type { WebhookEvent } from './events.js'
import { SUBSCRIBABLE_EVENTS } from './subscribable.js'

/**
 * One webhook: stream `webhook-<id>`. States: active ⇄ inactive (update_webhook active, or disabled by the
 * dispatcher after consecutive failures), and deleted (final: it answers like a missing one).
 */
export const webhookStream = (webhookId: number) => `webhook-${webhookId}`

export interface WebhookState {
  readonly exists: boolean
  readonly deleted: boolean
  readonly id: number
  readonly orgId: number | null
  readonly url: string
  readonly events: readonly string[] | null
  readonly description: string | null
  readonly active: boolean
}

/** The caller's organization (null: a platform key, which sees every organization's webhooks). */
type Visibility = { readonly caller_org_id: number | null }

export type WebhookCommand =
  | {
      type: 'RegisterWebhook'
      webhook_id: number
      org_id: number
      url: string
      events: readonly string[] | null
      description: string | null
      secret_sealed: string
      secret_hint: string
    }
  | ({ type: 'UpdateWebhook'; url?: string; events?: readonly string[] | null; description?: string | null; active?: boolean } & Visibility)
  | ({ type: 'RotateWebhookSecret'; secret_sealed: string; secret_hint: string } & Visibility)
  | ({ type: 'DeleteWebhook' } & Visibility)
  | ({ type: 'PingWebhook'; delivery_id: number } & Visibility)
  | ({ type: 'RedeliverWebhook'; delivery_id: number; of_delivery_id: number; event_number: number } & Visibility)
  /** The dispatcher, after `consecutive_failures` failed attempts in a row. */
  | { type: 'DisableWebhook'; consecutive_failures: number }

export const initialWebhookState = (): WebhookState => ({
  exists: false,
  deleted: false,
  id: 0,
  orgId: null,
  url: '',
  events: null,
  description: null,
  active: false,
})

function evolveWebhook(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookRegistered': {
      const d = event.data
      return {
        ...state,
        exists: true,
        id: d.webhook_id,
        orgId: d.org_id,
        url: d.url,
        events: d.events,
        description: d.description,
        active: true,
      }
    }
    case 'WebhookUpdated': {
      const d = event.data
      return { ...state, url: d.url, events: d.events, description: d.description, active: d.active }
    }
    case 'WebhookDisabled':
      return { ...state, active: false }
    case 'WebhookDeleted':
      return { ...state, deleted: true, active: false }
    case 'WebhookSecretRotated':
    case 'WebhookPingRequested':
    case 'WebhookRedeliveryRequested':
      return state
    default:
      return assertNever(event)
  }
}

/** Event names must be ones a subscriber can receive; duplicates are dropped, the order kept. */
export function normalizeEventNames(names: readonly string[] | null): string[] | null {
  if (names === null) return null
  const unknown = names.filter((n) => !SUBSCRIBABLE_EVENTS.includes(n))
  if (unknown.length > 0) {
    throw new DomainError(
      'webhook_event_unknown',
      'Unknown webhook event',
      `unknown: ${unknown.join(', ')}; known: ${SUBSCRIBABLE_EVENTS.join(', ')}`,
    )
  }
  if (names.length === 0)
    throw new DomainError('webhook_event_unknown', 'Unknown webhook event', 'events is empty: leave it out (or null) for every event')
  return [...new Set(names)]
}

function assertVisible(state: WebhookState, callerOrgId: number | null): void {
  if (!state.exists || state.deleted || (callerOrgId !== null && state.orgId !== callerOrgId))
    throw new NotFoundError('webhook', state.id || '?')
}

function decideWebhook(command: WebhookCommand, state: WebhookState): WebhookEvent[] {
  if (command.type === 'RegisterWebhook') {
    if (state.exists) throw new DomainError('already_exists', 'Already exists', `webhook ${command.webhook_id}`)
    const { type: _type, ...data } = command
    return [{ type: 'WebhookRegistered', data: { ...data, events: normalizeEventNames(command.events) } }]
  }
  if (command.type === 'DisableWebhook') {
    // The dispatcher's verdict on a webhook someone deleted or switched off meanwhile changes nothing.
    if (!state.exists || state.deleted || !state.active) return []
    return [{ type: 'WebhookDisabled', data: { webhook_id: state.id, consecutive_failures: command.consecutive_failures } }]
  }
  assertVisible(state, command.caller_org_id)
  const webhook_id = state.id
  switch (command.type) {
    case 'UpdateWebhook': {
      const next = {
        webhook_id,
        url: command.url ?? state.url,
        events: command.events === undefined ? state.events : normalizeEventNames(command.events),
        description: command.description === undefined ? state.description : command.description,
        active: command.active ?? state.active,
      }
      const same =
        next.url === state.url &&
        JSON.stringify(next.events) === JSON.stringify(state.events) &&
        next.description === state.description &&
        next.active === state.active
      return same ? [] : [{ type: 'WebhookUpdated', data: { ...next, events: next.events === null ? null : [...next.events] } }]
    }
    case 'RotateWebhookSecret':
      return [
        { type: 'WebhookSecretRotated', data: { webhook_id, secret_sealed: command.secret_sealed, secret_hint: command.secret_hint } },
      ]
    case 'DeleteWebhook':
      return [{ type: 'WebhookDeleted', data: { webhook_id } }]
    case 'PingWebhook':
      return [{ type: 'WebhookPingRequested', data: { webhook_id, delivery_id: command.delivery_id } }]
    case 'RedeliverWebhook':
      return [
        {
          type: 'WebhookRedeliveryRequested',
          data: {
            webhook_id,
            delivery_id: command.delivery_id,
            of_delivery_id: command.of_delivery_id,
            event_number: command.event_number,
          },
        },
      ]
    default:
      return assertNever(command)
  }
}

export const webhook: Aggregate<WebhookState, WebhookCommand, WebhookEvent> = {
  streamOf: webhookStream,
  orgOf: (state) => state.orgId,
  initialState: initialWebhookState,
  evolve: evolveWebhook,
  decide: decideWebhook,
}
