/**
 * The dispatcher's group commit (processors/webhooks/attempt-recorder.ts) on a real database: attempts that
 * finish together are written in fewer appends than attempts, every row is settled and every event is on
 * its delivery's stream; an attempt another worker already recorded is adopted, not written twice; and the
 * webhook failure count folds a batch's attempts in order.
 */
import t from 'tap'
import { toNewEvents } from '../../commands/command-handler.js'
import type { EventStore, StreamWrite } from '../../commands/event-store/port.js'
import { appendEach } from '../../commands/event-store/port.js'
import type { WebhookDeliveryAttemptedData } from '../../domain/webhooks/events.js'
import { AttemptRecorder, deliveryStream, foldTargets, type AttemptRecord } from '../../processors/webhooks/attempt-recorder.js'
import { startTestSystem } from '../support/system.js'

const context = { actor: { kind: 'system' as const, id: 'test' }, requestId: null, correlationId: 'c', causationId: null }

function attemptData(deliveryId: number, webhookId: number, succeeded: boolean, attempt = 1): WebhookDeliveryAttemptedData {
  return {
    delivery_id: deliveryId,
    webhook_id: webhookId,
    event_number: deliveryId,
    event: 'job.completed',
    client_id: null,
    attempt,
    succeeded,
    status_code: succeeded ? 204 : 500,
    error: succeeded ? null : 'HTTP 500',
    duration_ms: 3,
    final: succeeded,
    next_attempt_at: succeeded ? null : '2030-01-01T00:00:00.000Z',
    consecutive_failures: succeeded ? 0 : 1,
    requested: null,
  }
}

t.test('foldTargets: a success resets the count, each failure adds one, in attempt order', async (t) => {
  const rec = (webhookId: number, succeeded: boolean, disable = false) =>
    ({ data: attemptData(1, webhookId, succeeded), event: null as never, disable }) as AttemptRecord
  t.same(foldTargets([rec(1, false), rec(1, true), rec(1, false), rec(2, false), rec(2, false, true)]), [
    { webhookId: 1, reset: true, failures: 1, disable: false },
    { webhookId: 2, reset: false, failures: 2, disable: true },
  ])
})

t.test('attempts finishing together share writes; each is settled and on record once', async (t) => {
  const ts = await startTestSystem(t)
  const db = ts.system.database.db
  const orgId = 1
  await db
    .insertInto('webhook_targets')
    .values(
      [1, 2].map((id) => ({
        webhook_id: id,
        org_id: orgId,
        url: `https://hooks.example/${id}`,
        host: 'hooks.example',
        events: null,
        active: true,
        secret_sealed: 'x',
        updated_at: new Date(),
        consecutive_failures: 3,
      })),
    )
    .execute()
  const count = 40
  await db
    .insertInto('webhook_events')
    .values(
      Array.from({ length: count }, (_, i) => ({
        number: i + 1,
        event_id: `e${i + 1}`,
        org_id: orgId,
        name: 'job.completed',
        client_id: null,
        data: '{}',
        created_at: new Date(),
        in_feed: true,
      })),
    )
    .execute()
  await db
    .insertInto('webhook_deliveries')
    .values(
      Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        webhook_id: (i % 2) + 1,
        org_id: orgId,
        event_number: i + 1,
        requested: null,
        status: 'in_flight',
        attempts: 0,
        next_attempt_at: new Date(),
        lease_until: new Date(Date.now() + 60_000),
        created_at: new Date(),
      })),
    )
    .execute()

  // A store that counts appendEach calls (the real one underneath).
  const inner = ts.system.store
  let appendCalls = 0
  const store = {
    appendEach: (writes: readonly StreamWrite[]) => {
      appendCalls++
      return appendEach(inner, writes)
    },
    readStream: (stream: string) => inner.readStream(stream),
  } as unknown as EventStore
  // Delivery 1's first attempt is already on record: a worker died before settling its row.
  const first = attemptData(1, 1, true)
  await inner.append(
    deliveryStream(1),
    toNewEvents(ts.system.write, context, [{ type: 'WebhookDeliveryAttempted', data: first }], orgId),
    'no_stream',
  )

  const recorder = new AttemptRecorder({ store, db, clock: () => new Date() })
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      // Webhook 1 succeeds, webhook 2 fails.
      const data = attemptData(i + 1, (i % 2) + 1, i % 2 === 0)
      return recorder.record({
        data,
        event: toNewEvents(ts.system.write, context, [{ type: 'WebhookDeliveryAttempted', data }], orgId)[0]!,
        disable: false,
      })
    }),
  )
  t.ok(appendCalls < count, `${count} attempts in ${appendCalls} appends`)
  t.match(outcomes[0], { kind: 'already_recorded', last: { delivery_id: 1, attempt: 1 } }, 'the recorded attempt is adopted')
  t.ok(outcomes.slice(1).every((o) => o.kind === 'recorded'))

  const rows = await db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts', 'lease_until']).orderBy('id').execute()
  t.ok(
    rows.every((r) => r.attempts === 1 && r.lease_until === null),
    'every row settled',
  )
  t.same([...new Set(rows.filter((r) => Number(r.id) % 2 === 1).map((r) => r.status))], ['succeeded'])
  t.same([...new Set(rows.filter((r) => Number(r.id) % 2 === 0).map((r) => r.status))], ['pending'], 'failed attempts wait for their retry')
  const { rows: events } = await ts.database.pool.query<{ stream_name: string; n: number }>(
    `select stream_name, count(*)::int as n from es_events where type = 'WebhookDeliveryAttempted' group by stream_name`,
  )
  t.equal(events.length, count, 'one stream per delivery')
  t.ok(
    events.every((e) => e.n === 1),
    'each attempt on record once',
  )
  const targets = await db.selectFrom('webhook_targets').select(['webhook_id', 'consecutive_failures']).orderBy('webhook_id').execute()
  t.same(
    targets.map((r) => [Number(r.webhook_id), r.consecutive_failures]),
    [
      [1, 0],
      [2, 3 + count / 2],
    ],
    'successes reset, failures add up',
  )
})
