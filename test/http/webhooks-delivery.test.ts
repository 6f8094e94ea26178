/**
 * Delivery to real receivers on 127.0.0.1 (allow-listed), with the dispatcher running and a hand-moved clock:
 * the body and signature verify with an independent HMAC; a receiver that fails twice then succeeds has three
 * attempts on record at the scheduled delays; a redirect is a failure and is not followed; a webhook's events
 * go out in order; rotate-secret, redeliver, ping; the cursor feed carries the same bodies; a restarted
 * dispatcher loses no pending delivery.
 */
import pino from 'pino'
import t from 'tap'
import { openSystem } from '../../ops/system.js'
import { startTestSystem, type TestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import {
  appendSourceEvent,
  eventually,
  handClock,
  LOOPBACK_ALLOWED,
  startReceiver,
  TEST_SERVICE_KEY,
  verifySignature,
} from './webhooks-helpers.js'

const MINUTE = 60_000

async function deliveries(ts: TestSystem, key: string, webhookId: number): Promise<any[]> {
  return ts.call<any[]>('list_webhook_deliveries', { webhook_id: webhookId }, key)
}

t.test('delivery, retries, order, rotation, redelivery and the feed', async (t) => {
  const clock = handClock('2026-11-23T10:00:00.000Z')
  const ts = await startTestSystem(t, {
    clock: clock.now,
    runProcessors: true,
    webhooks: { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, pollMs: 20 },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const receiver = await startReceiver(t)
  const hook = await ts.call('register_webhook', { url: receiver.url(), events: ['job.completed', 'job.failed'] }, acme.key)
  const otherReceiver = await startReceiver(t)
  await ts.call('register_webhook', { url: otherReceiver.url() }, other.key)
  let jobId = 0
  const jobCompleted = (orgId: number, result: Record<string, unknown> = { ok: true }) => {
    jobId += 1
    return appendSourceEvent(
      ts,
      `job-${jobId}`,
      'JobCompleted',
      { job_id: jobId, kind: 'export_org', client_id: null, result },
      orgId,
      clock.now(),
    )
  }

  await t.test('a signed delivery that verifies with any HMAC-SHA256 implementation', async (t) => {
    await jobCompleted(acme.orgId, { download_url: '/x.zip' })
    const [request] = await eventually(async () => receiver.received.length >= 1 && receiver.received, 'the first delivery')
    t.equal(request!.headers['content-type'], 'application/json')
    t.equal(request!.headers['x-service-event'], 'job.completed')
    t.equal(request!.headers['x-service-timestamp'], String(Math.floor(clock.now().getTime() / 1000)))
    t.ok(verifySignature(hook.secret, request!, Math.floor(clock.now().getTime() / 1000)), 'the signature verifies')
    t.notOk(verifySignature('whsec_wrong', request!, Math.floor(clock.now().getTime() / 1000)), 'and not with another secret')
    t.notOk(verifySignature(hook.secret, request!, Math.floor(clock.now().getTime() / 1000) + 301), 'a receiver 301 s later rejects it')
    t.match(request!.body, {
      event: 'job.completed',
      created_at: '2026-11-23T10:00:00.000Z',
      org_id: acme.orgId,
      client_id: null,
      data: { job_id: 1, kind: 'export_org', client_id: null, result: { download_url: '/x.zip' }, status_url: '/api/v1/jobs/1' },
    })
    t.type(request!.body.id, 'number')
    t.same(Object.keys(request!.body).sort(), ['client_id', 'created_at', 'data', 'event', 'id', 'org_id'])
    const listed = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.status === 'succeeded'),
      'the listing',
    )
    t.match(listed, {
      event: 'job.completed',
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      event_number: request!.body.id,
    })
    t.equal(String(listed.id), request!.headers['x-service-delivery'], 'X-Service-Delivery is the listed delivery id')
    t.equal(otherReceiver.received.length, 0, "another organization's webhook gets nothing of Acme's")
  })

  await t.test('fails twice, then succeeds: three attempts on record at the scheduled delays; later events wait their turn', async (t) => {
    receiver.received.length = 0
    receiver.setScript((n) => ({ status: n < 2 ? 500 : 204 }))
    await jobCompleted(acme.orgId)
    await eventually(async () => receiver.received.length >= 1, 'attempt 1')
    const first = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.status === 'retrying'),
      'attempt 1 on record',
    )
    t.match(first, { attempts: 1, last_status_code: 500, last_error: 'HTTP 500' })
    t.equal(Date.parse(first.next_attempt_at) - Date.parse(first.last_attempt_at), 1 * MINUTE, 'retry 1 after a minute')

    await jobCompleted(acme.orgId, { second: true })
    await ts.call('list_webhooks', {}, acme.key)
    clock.advance(MINUTE - 1)
    // Nothing is due a millisecond early, and the later event waits behind the failing one.
    t.equal(receiver.received.length, 1, 'no early retry and no overtaking')
    clock.advance(1)
    await eventually(async () => receiver.received.length >= 2, 'attempt 2')
    const second = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.id === first.id && d.attempts === 2),
      'attempt 2 on record',
    )
    t.equal(Date.parse(second.next_attempt_at) - Date.parse(second.last_attempt_at), 2 * MINUTE, 'retry 2 after two minutes')
    t.equal(receiver.received[1]!.body.id, receiver.received[0]!.body.id, 'the same event again')
    clock.advance(2 * MINUTE)
    await eventually(async () => receiver.received.length >= 4, 'attempt 3 and then the next event')
    // The receiver answered before the attempt is on record: wait for the read model.
    const done = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.id === first.id && d.attempts === 3),
      'attempt 3 on record',
    )
    t.match(done, { status: 'succeeded', attempts: 3, last_status_code: 204, next_attempt_at: null })
    t.same(
      done.attempt_log.map((a: any) => [a.attempt, a.succeeded, a.status_code, a.attempted_at]),
      [
        [1, false, 500, '2026-11-23T10:00:00.000Z'],
        [2, false, 500, '2026-11-23T10:01:00.000Z'],
        [3, true, 204, '2026-11-23T10:03:00.000Z'],
      ],
      'every attempt, at its scheduled time',
    )
    t.ok(receiver.received[3]!.body.id > receiver.received[2]!.body.id, 'the later event came after the earlier one succeeded')
    t.same(receiver.received[3]!.body.data.result, { second: true })
    const [webhook] = await ts.call<any[]>('list_webhooks', {}, acme.key)
    t.equal(webhook.failure_count, 0, 'a success resets the failure count')
  })

  await t.test('a redirect is a failure and is not followed', async (t) => {
    receiver.received.length = 0
    receiver.setScript((n, request) =>
      request.path === '/elsewhere'
        ? { status: 200 }
        : n === 0
          ? { status: 302, headers: { location: receiver.url('/elsewhere') } }
          : { status: 200 },
    )
    await jobCompleted(acme.orgId)
    const failed = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.last_status_code === 302),
      'the redirect on record',
    )
    t.match(failed, { status: 'retrying', last_error: 'redirect (302) not followed' })
    t.same(
      receiver.received.map((r) => r.path),
      ['/hook'],
      'the Location was never requested',
    )
    clock.advance(MINUTE)
    await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.id === failed.id && d.status === 'succeeded'),
      'the retry',
    )
  })

  await t.test('rotate-secret: deliveries from then on are signed with the new secret', async (t) => {
    const rotated = await ts.call('rotate_webhook_secret', { webhook_id: hook.id }, acme.key)
    receiver.received.length = 0
    receiver.setScript(() => ({ status: 200 }))
    await jobCompleted(acme.orgId)
    const [request] = await eventually(async () => receiver.received.length >= 1 && receiver.received, 'a delivery after rotation')
    const now = Math.floor(clock.now().getTime() / 1000)
    t.ok(verifySignature(rotated.secret, request!, now), 'verifies with the new secret')
    t.notOk(verifySignature(hook.secret, request!, now), 'not with the old one')
  })

  await t.test('redeliver and ping', async (t) => {
    const latest = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.status === 'succeeded'),
      'a delivery',
    )
    receiver.received.length = 0
    const again = await ts.call('redeliver_webhook', { delivery_id: latest.id }, acme.key)
    t.not(again.delivery_id, latest.id, 'a new delivery')
    const [request] = await eventually(async () => receiver.received.length >= 1 && receiver.received, 'the redelivery')
    t.equal(request!.body.id, latest.event_number, 'with the same body id')
    t.equal(request!.headers['x-service-delivery'], String(again.delivery_id))
    const listed = await eventually(
      async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.id === again.delivery_id),
      'the redelivery listed',
    )
    t.match(listed, { requested: 'redelivery', status: 'succeeded' })
    const foreign = await ts.rpc('redeliver_webhook', { delivery_id: latest.id }, other.key)
    t.equal(foreign.statusCode, 404, "another organization's delivery answers like a missing one")

    const ping = await ts.call('test_webhook', { webhook_id: hook.id }, acme.key)
    const pinged = await eventually(async () => receiver.received.find((r) => r.headers['x-service-event'] === 'ping'), 'the ping')
    t.match(pinged.body, { event: 'ping', org_id: acme.orgId, data: { webhook_id: hook.id } })
    t.equal(pinged.headers['x-service-delivery'], String(ping.delivery_id))
  })

  await t.test('the cursor feed replays the same bodies in order', async (t) => {
    await appendSourceEvent(ts, 'job-9999', 'JobCancelled', { job_id: 9999, kind: 'audit', client_id: null }, other.orgId, clock.now())
    await eventually(async () => otherReceiver.received.length >= 1, "Other's own event reaches Other's webhook")
    const get = (query: string, key = acme.key) =>
      ts.app.inject({ method: 'GET', url: `/api/v1/events${query}`, headers: { authorization: `Bearer ${key}` } })
    const page1 = await get('?limit=2')
    t.equal(page1.statusCode, 200)
    const body1 = page1.json()
    t.equal(body1.events.length, 2)
    t.equal(body1.has_more, true)
    const all: any[] = [...body1.events]
    let cursor = body1.next_cursor
    for (;;) {
      const page = (await get(`?after=${cursor}&limit=2`)).json()
      all.push(...page.events)
      cursor = page.next_cursor
      if (!page.has_more) break
    }
    t.equal(all.length, jobId, "every Acme event, none of Other's, no ping")
    t.ok(
      all.every((e, i) => i === 0 || e.id > all[i - 1].id),
      'in order',
    )
    t.notOk(all.some((e) => e.event === 'ping'))
    const delivered = receiver.received.find((r) => r.headers['x-service-event'] === 'job.completed')
    if (delivered)
      t.same(
        all.find((e) => e.id === delivered.body.id),
        delivered.body,
        'the same body as the delivery',
      )
    const empty = (await get(`?after=${cursor}`)).json()
    t.same(empty, { events: [], next_cursor: cursor, has_more: false }, 'caught up: the cursor stays')
    t.equal((await get('?after=nonsense')).json().code, 'events_cursor_invalid')
    t.equal((await get('', ts.platformKey)).json().code, 'org_id_required')
    t.equal((await get(`?org_id=${other.orgId}`)).statusCode, 404, "another organization's feed answers like a missing one")
    const others = (await get('', other.key)).json().events
    t.same(
      others.map((e: any) => e.event),
      ['job.cancelled'],
      "Other's feed: its own event only",
    )
  })
})

t.test('a restarted dispatcher loses no pending delivery', async (t) => {
  const clock = handClock('2026-11-23T12:00:00.000Z')
  const webhooks = { serviceKey: TEST_SERVICE_KEY, allowList: LOOPBACK_ALLOWED, pollMs: 20 }
  const ts = await startTestSystem(t, { clock: clock.now, runProcessors: true, webhooks })
  const acme = await orgWithKey(ts, 'Acme')
  const receiver = await startReceiver(t, () => ({ status: 503 }))
  const hook = await ts.call('register_webhook', { url: receiver.url() }, acme.key)
  await appendSourceEvent(ts, 'job-1', 'JobCompleted', { job_id: 1, kind: 'audit', client_id: null, result: {} }, acme.orgId, clock.now())
  await eventually(async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.status === 'retrying'), 'a failed first attempt')
  await Promise.all(ts.system.processors.map((p) => p.stop()))

  const restarted = await openSystem({ databaseUrl: ts.database.url, log: pino({ level: 'silent' }), clock: clock.now, webhooks })
  t.teardown(() => restarted.close())
  restarted.startProcessors()
  receiver.setScript(() => ({ status: 200 }))
  clock.advance(MINUTE)
  const done = await eventually(
    async () => (await deliveries(ts, acme.key, hook.id)).find((d) => d.status === 'succeeded'),
    'the retry by the new process',
  )
  t.equal(done.attempts, 2)
  t.equal(receiver.received.length, 2, 'sent once per attempt')
})
