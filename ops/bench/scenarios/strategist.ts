import type { Figure, Scenario } from '../types.js'
import { sampleMemory } from './support/memory-sampler.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

/** The month planned, and the one before it whose unfinished items are carried over. */
const MONTH = '2026-11'
const LAST_MONTH = '2026-10'
const POLL_MS = 200

/**
 * A client as the strategist meets it: keywords no page serves (open keyword_without_page insights, raised
 * by refresh_seo_insights) and last month's unfinished items, to be carried over.
 */
async function seed(service: RunningService, clients: number): Promise<number[]> {
  const key = service.orgKey
  return inParallel(clients, 4, async (i) => {
    const clientId = await service.call<number>(
      'add_client',
      { client: { name: `Summit Plumbing ${i + 1}`, website_url: `https://summit-${i + 1}.example.com` } },
      key,
    )
    for (const keyword of ['drain cleaning', 'water heater repair', 'emergency plumber', 'sewer line repair', 'leak detection'])
      await service.call('add_keyword', { keyword: { client_id: clientId, keyword: `${keyword} austin ${i}` } }, key)
    await service.call('refresh_seo_insights', { client_id: clientId }, key)
    for (const description of ['Fix the contact form', 'Ask for reviews after each job'])
      await service.call('add_action_item', { client_id: clientId, month: LAST_MONTH, action_type: 'manual', description }, key)
    return clientId
  })
}

async function http(service: RunningService, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${service.origin}${path}`, {
    method,
    headers: rpcHeaders(service.orgKey),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = await response.json()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}

/**
 * bulk_strategist over a group of 200 clients (5 with --quick), each with five open insights and two
 * unfinished items of last month: POST /api/v1/jobs to done through the job engine in process, with the
 * built-in templates (no language model). Measured: clients planned per second (each: last month closed
 * and carried over, findings read, ranked, fitted and added) and the process's memory over the run.
 */
const bulkStrategist: Scenario = {
  name: 'strategist',
  description: 'bulk_strategist over a group of 200 clients with realistic findings: clients/s and memory',
  async run(context) {
    const service = await startService(context, { processors: true })
    try {
      const clients = context.quick ? 5 : 200
      const seeded = Date.now()
      const clientIds = await seed(service, clients)
      context.log(`strategist: seeded ${clients} clients in ${((Date.now() - seeded) / 1000).toFixed(1)} s`)
      const group = await service.call<{ id: number }>(
        'create_client_group',
        { name: 'Bench plumbers', client_ids: clientIds },
        service.orgKey,
      )
      const memory = sampleMemory({ everyMs: 250 })
      const started = performance.now()
      const { job_id: jobId } = await http(service, 'POST', '/api/v1/jobs', {
        kind: 'bulk_strategist',
        group_id: group.id,
        payload: { month: MONTH },
      })
      let job: any
      for (;;) {
        job = await http(service, 'GET', `/api/v1/jobs/${jobId}`)
        if (['done', 'failed', 'cancelled'].includes(job.status)) break
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
      }
      const seconds = (performance.now() - started) / 1000
      const peaks = memory.stop()
      if (job.status !== 'done') throw new Error(`bulk_strategist ended ${job.status}: ${JSON.stringify(job.error)}`)
      const result = job.result as { succeeded: number; added: number; failed: unknown[] }
      context.log(
        `strategist: ${result.succeeded} clients planned, ${result.added} items added in ${seconds.toFixed(1)} s, peak RSS ${peaks.peakRssMiB.toFixed(0)} MiB`,
      )
      const figures: Figure[] = [
        { metric: 'clients/s', value: result.succeeded / seconds, unit: 'clients/s', better: 'higher' },
        { metric: 'items added', value: result.added, unit: 'items', better: 'higher' },
        { metric: 'peak RSS', value: peaks.peakRssMiB, unit: 'MiB', better: 'lower' },
        { metric: 'RSS growth', value: peaks.rssGrowthMiB, unit: 'MiB', better: 'lower' },
        { metric: 'failed clients', value: result.failed.length, unit: 'clients', target: { op: '<=', value: 0 }, better: 'lower' },
      ]
      return figures
    } finally {
      await service.close()
    }
  },
}

export const strategistScenarios: readonly Scenario[] = [bulkStrategist]
