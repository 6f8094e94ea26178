import { toNewEvents } from '../../../commands/command-handler.js'
import { systemContext } from '../../../commands/command-handler.js'
import { disableWebhook } from '../../../commands/webhooks.js'
import type { WebhookDeliveryAttemptedData } from '../../../domain/webhooks/events.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The webhooks part of the realistic log: registered, updated (switched off and on), rotated, pinged,
 * deleted, disabled by the dispatcher's command, and delivery attempts as the dispatcher records them
 * (a delivery that fails, is retried and succeeds, and one attempt recorded twice is impossible by revision).
 */
export async function writeWebhooksLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [, orgB] = log.orgIds as [number, number]
  const first = await call<{ id: number }>(
    'register_webhook',
    { url: 'https://93.184.216.34/hooks', events: ['job.completed'], description: 'CRM' },
    keys.orgA,
  )
  const second = await call<{ id: number }>('register_webhook', { url: 'https://93.184.216.35/b', org_id: orgB })
  await call('update_webhook', { webhook_id: first.id, active: false }, keys.orgA)
  await call('update_webhook', { webhook_id: first.id, active: true, events: null }, keys.orgA)
  await call('rotate_webhook_secret', { webhook_id: first.id }, keys.orgA)
  await call('test_webhook', { webhook_id: first.id }, keys.orgA)
  const attempt = (data: Partial<WebhookDeliveryAttemptedData> & { attempt: number }): WebhookDeliveryAttemptedData => ({
    delivery_id: 900_001,
    webhook_id: first.id,
    event_number: 1,
    event: 'job.completed',
    client_id: null,
    succeeded: false,
    status_code: 500,
    error: 'HTTP 500',
    duration_ms: 12,
    final: false,
    next_attempt_at: '2026-11-23T10:01:00.000Z',
    consecutive_failures: data.attempt,
    requested: null,
    ...data,
  })
  const orgA = (log.orgIds as number[])[0]!
  await ts.system.store.append(
    'webhook_delivery-900001',
    toNewEvents(
      ts.system.write,
      systemContext('webhook-dispatcher'),
      [{ type: 'WebhookDeliveryAttempted', data: attempt({ attempt: 1 }) }],
      orgA,
    ),
    'no_stream',
  )
  await ts.system.store.append(
    'webhook_delivery-900001',
    toNewEvents(
      ts.system.write,
      systemContext('webhook-dispatcher'),
      [
        {
          type: 'WebhookDeliveryAttempted',
          data: attempt({
            attempt: 2,
            succeeded: true,
            status_code: 200,
            error: null,
            final: true,
            next_attempt_at: null,
            consecutive_failures: 0,
          }),
        },
      ],
      orgA,
    ),
    0n,
  )
  await disableWebhook(ts.system.write, systemContext('webhook-dispatcher'), { webhookId: second.id, consecutiveFailures: 100 })
  await call('delete_webhook', { webhook_id: second.id, org_id: orgB })
}
