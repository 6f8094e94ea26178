/**
 * The dispatcher against hostile and broken receivers (real sockets on 127.0.0.1): a receiver that hangs past
 * 10 seconds fails the attempt; a name whose DNS answer turns private after registration is refused at
 * connect time without a connection; 100 consecutive failures disable the webhook (an event), and nothing
 * more is sent to it.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey, streamEvents } from './helpers.js'
import { appendSourceEvent, eventually, LOOPBACK_ALLOWED, startReceiver, TEST_SERVICE_KEY } from './webhooks-helpers.js'

t.test('hang, DNS rebinding, and the disable after 100 consecutive failures', async (t) => {
  let answer = '93.184.216.34'
  const ts = await startTestSystem(t, {
    runProcessors: true,
    webhooks: {
      serviceKey: TEST_SERVICE_KEY,
      allowList: LOOPBACK_ALLOWED,
      backoffBaseMs: 1,
      pollMs: 10,
      resolve: async (host) => (host === 'rebind.example.com' ? [answer] : []),
    },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const deliveriesOf = (webhookId: number) => ts.call<any[]>('list_webhook_deliveries', { webhook_id: webhookId }, acme.key)
  let job = 0
  const emit = (type: 'JobCompleted' | 'JobFailed' | 'JobCancelled') => {
    job += 1
    const data = {
      job_id: job,
      kind: 'audit',
      client_id: null,
      ...(type === 'JobCompleted' ? { result: {} } : type === 'JobFailed' ? { error: 'boom', reason: 'error' } : {}),
    }
    return appendSourceEvent(ts, `job-${job}`, type, data, acme.orgId, new Date())
  }

  await t.test('a receiver that hangs past 10 seconds', async (t) => {
    const hanging = await startReceiver(t, () => 'hang')
    const hook = await ts.call('register_webhook', { url: hanging.url(), events: ['job.failed'] }, acme.key)
    await emit('JobFailed')
    const first = await eventually(async () => (await deliveriesOf(hook.id))[0], 'the timed-out attempt', 40_000)
    t.match(first, { event: 'job.failed', last_status_code: null, last_error: 'no answer within 10 s' })
    t.ok(first.attempt_log[0].duration_ms >= 10_000, 'it waited the full 10 seconds')
    await ts.call('delete_webhook', { webhook_id: hook.id }, acme.key)
  })

  await t.test('a name that resolves to a private address at connect time is refused without connecting', async (t) => {
    const receiver = await startReceiver(t)
    const hook = await ts.call('register_webhook', { url: 'https://rebind.example.com/hook', events: ['job.cancelled'] }, acme.key)
    answer = '127.0.0.2' // the DNS answer changes after the registration's check
    await emit('JobCancelled')
    const first = await eventually(async () => (await deliveriesOf(hook.id))[0], 'the refused attempt')
    t.match(first, {
      last_status_code: null,
      last_error: /refused by the URL policy: rebind\.example\.com resolves to a refused address: 127\.0\.0\.2 is in a loopback range/,
    })
    t.equal(receiver.received.length, 0, 'nothing was sent')
    await ts.call('delete_webhook', { webhook_id: hook.id }, acme.key)
  })

  await t.test('100 consecutive failures disable the webhook', async (t) => {
    const failing = await startReceiver(t, () => ({ status: 500 }))
    const hook = await ts.call('register_webhook', { url: failing.url(), events: ['job.completed'] }, acme.key)
    for (let i = 0; i < 13; i++) await emit('JobCompleted') // 13 × 8 attempts > 100
    const disabled = await eventually(
      async () => (await ts.call<any[]>('list_webhooks', {}, acme.key)).find((w) => w.id === hook.id && !w.active),
      'the disable',
      120_000,
    )
    t.match(disabled, { active: false, failure_count: 100, disabled_reason: '100 consecutive failures' })
    const events = await streamEvents(ts, `webhook-${hook.id}`)
    t.match(events.at(-1), {
      type: 'WebhookDisabled',
      data: { webhook_id: hook.id, consecutive_failures: 100 },
      metadata: { org_id: acme.orgId },
    })
    const sent = failing.received.length
    t.equal(sent, 100, 'exactly 100 attempts were sent')
    const listed = await deliveriesOf(hook.id)
    t.equal(listed.filter((d) => d.status === 'failed').length, 12, '12 deliveries used all 8 attempts')
    t.equal(
      listed.reduce((n, d) => n + d.attempts, 0),
      100,
      'every attempt is listed',
    )
    t.ok(listed.every((d) => d.attempt_log.length === d.attempts))
    // Switched back on, the count starts afresh and the held-back delivery goes out again.
    failing.setScript(() => ({ status: 200 }))
    await ts.call('update_webhook', { webhook_id: hook.id, active: true }, acme.key)
    const back = await eventually(
      async () => (await ts.call<any[]>('list_webhooks', {}, acme.key)).find((w) => w.id === hook.id && w.last_success_at !== null),
      'a success after re-enabling',
    )
    t.match(back, { active: true, failure_count: 0 })
  })
})
