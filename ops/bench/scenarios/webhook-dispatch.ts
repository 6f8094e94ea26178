import { randomUUID } from 'node:crypto'
import pino from 'pino'
import { mintPlatformKey } from '../../../commands/platform.js'
import { parseAllowList } from '../../../domain/webhooks/url-policy.js'
import { DEFAULT_WEBHOOK_TUNING } from '../../../processors/webhooks/settings.js'
import { openSystem } from '../../system.js'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { nextMessage, startThread } from './support/thread.js'
import type { WebhookReceiversInput } from './support/webhook-receivers.js'

/** Local receivers, one per loopback address: the per-host cap applies per receiver, as it would per customer. */
const RECEIVERS = 4
const WEBHOOKS_PER_RECEIVER = 50
const shape = (context: BenchContext) => ({ events: context.quick ? 2 : 50 })

/** The receivers, listening in a worker thread (support/webhook-receivers.ts). */
async function startReceivers(): Promise<{ urls: string[]; received: () => Promise<number>; close: () => Promise<void> }> {
  const worker = startThread(new URL('./support/webhook-receivers.ts', import.meta.url), {
    hosts: Array.from({ length: RECEIVERS }, (_, i) => `127.0.0.${i + 1}`),
  } satisfies WebhookReceiversInput)
  const urls = await nextMessage<string[]>(worker)
  const ask = (message: string) => {
    const answer = nextMessage<number>(worker)
    worker.postMessage(message)
    return answer
  }
  return {
    urls,
    received: () => ask('count'),
    close: async () => {
      await ask('close').catch(() => 0)
      await worker.terminate()
    },
  }
}

/**
 * webhook_dispatch: 200 webhooks (50 on each of 4 local receivers) subscribed to job.completed, then 50
 * JobCompleted events: 10,000 signed deliveries, each webhook's in event order. The receivers answer from a
 * worker thread (support/webhook-receivers.ts), as a customer's receiver is another machine: in the service's
 * own thread, parsing and answering 10,000 POSTs took turns with the dispatcher. Measured from starting the
 * processors (fan-out included) until every delivery has succeeded on record (its attempt event appended and
 * its work row settled), with the default dispatcher settings (64 in flight, 16 per host).
 */
const webhookDispatch: Scenario = {
  name: 'webhook_dispatch',
  description: `webhook deliveries to ${RECEIVERS} local receivers × ${WEBHOOKS_PER_RECEIVER} webhooks, default concurrency ${DEFAULT_WEBHOOK_TUNING.concurrency}, ${DEFAULT_WEBHOOK_TUNING.perHostCap} per host`,
  repeat: 1,
  async run(context) {
    const database = await context.createDatabase()
    const receivers = await startReceivers()
    const system = await openSystem({
      databaseUrl: database.url,
      log: pino({ level: 'silent' }),
      rateLimits: { defaultPerMinute: 1_000_000 },
      webhooks: { allowList: parseAllowList('127.0.0.0/8')!, pollMs: 100 },
    })
    try {
      system.runner.start()
      const created = await mintPlatformKey(system.write, { name: 'bench platform key' })
      if (created.position) await system.watermark.waitFor(created.position, 10_000)
      const app = await system.buildApp()
      const call = async <T>(method: string, params: unknown): Promise<T> => {
        const response = await app.inject({
          method: 'POST',
          url: `/api/v1/rpc/${method}`,
          headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(params),
        })
        if (response.statusCode !== 200) throw new Error(`${method} answered ${response.statusCode}: ${response.body}`)
        return response.json().result as T
      }
      const orgId = await call<number>('create_organization', { name: 'Bench Agency' })
      for (const url of receivers.urls) {
        for (let i = 0; i < WEBHOOKS_PER_RECEIVER; i++)
          await call('register_webhook', { url: `${url}/${i}`, events: ['job.completed'], org_id: orgId })
      }
      const { events } = shape(context)
      for (let job = 1; job <= events; job++) {
        await system.store.append(
          `job-${job}`,
          [
            {
              type: 'JobCompleted',
              data: { job_id: job, kind: 'audit', client_id: null, result: { pages: job } },
              metadata: {
                org_id: orgId,
                actor: { kind: 'system', id: 'bench' },
                correlation_id: randomUUID(),
                causation_id: null,
                request_id: null,
                occurred_at: new Date().toISOString(),
                schema_version: 1,
              },
            },
          ],
          'no_stream',
        )
      }
      const expected = events * RECEIVERS * WEBHOOKS_PER_RECEIVER
      const started = performance.now()
      system.startProcessors()
      for (;;) {
        const { rows } = await database.pool.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries where status = 'succeeded'`,
        )
        if (rows[0]!.n >= expected) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      const seconds = (performance.now() - started) / 1000
      const received = await receivers.received()
      const { rows } = await database.pool.query<{ n: number }>(
        `select count(*)::int as n from es_events where type = 'WebhookDeliveryAttempted'`,
      )
      context.log(
        `webhook_dispatch: ${expected} deliveries in ${seconds.toFixed(2)} s (${Math.round(expected / seconds)}/s); ${received} requests received, ${rows[0]!.n} attempts recorded`,
      )
      await app.close()
      return [
        { metric: 'deliveries/s', value: expected / seconds, unit: 'deliveries/s', target: { op: '>=', value: 1000 }, better: 'higher' },
        {
          metric: 'extra requests (duplicates)',
          value: received - expected,
          unit: 'requests',
          target: { op: '<=', value: 0 },
          better: 'lower',
        },
      ] satisfies Figure[]
    } finally {
      await system.close().catch(() => {})
      await receivers.close()
      await database.close().catch(() => {})
    }
  },
}

export const webhookScenarios: readonly Scenario[] = [webhookDispatch]
