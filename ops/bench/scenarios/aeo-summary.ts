import type { Figure, Scenario } from '../types.js'
import { measureServer, measureWithCpu, startBareFastify, startConstantAnswer } from './http.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

/** Twelve months of captures, the target's data set: 2025-03 to 2026-02. */
const MONTHS = Array.from({ length: 12 }, (_, i) => {
  const m = (2 + i) % 12
  return `${m < 2 ? 2026 : 2025}-${String(m + 1).padStart(2, '0')}`
})
const LATEST = MONTHS.at(-1)!

/** An answer as an engine writes one: a numbered list of businesses, the client named in some, first in fewer. */
function answer(clientName: string, n: number): { answer_text: string; citations: { url: string; title: string }[] } {
  const competitors = ['Ace Plumbing & Rooter', 'Reliable Drain Pros', 'Capital City Plumbers', 'Lone Star Water Heaters']
  const names = [competitors[n % 4]!, competitors[(n + 1) % 4]!]
  if (n % 3 !== 0) names.splice(n % 2 === 0 ? 0 : 1, 0, clientName)
  const list = names.map((name, i) => `${i + 1}. **${name}**: well reviewed, licensed and insured, same-day service.`).join('\n')
  return {
    answer_text: `Here are some well-regarded options:\n\n${list}\n\nCheck recent reviews on Yelp and Google before you book.`,
    citations: [
      { url: 'https://www.yelp.com/search?find_desc=plumber', title: 'Yelp' },
      { url: `https://www.${names[0]!.toLowerCase().replace(/[^a-z]+/g, '')}.com/`, title: names[0]! },
    ],
  }
}

/** Clients with services, a question per service, and captures over twelve months through ingest_aeo_capture. */
async function seed(service: RunningService, clients: number, capturesPerMonth: number): Promise<number[]> {
  const key = service.orgKey
  return inParallel(clients, 4, async (i) => {
    const name = `Summit Plumbing ${i + 1}`
    const clientId = await service.call<number>(
      'add_client',
      {
        client: {
          name,
          website_url: `https://summit-${i + 1}.example.com`,
          services: ['Drain cleaning', 'Water heaters'],
          locations: ['Austin, TX'],
        },
      },
      key,
    )
    const queries = [
      await service.call<number>('add_aeo_query', { client_id: clientId, prompt: `best drain cleaning company in Austin ${i}` }, key),
      await service.call<number>(
        'add_aeo_query',
        { client_id: clientId, prompt: `who should I hire for water heater repair in Austin ${i}` },
        key,
      ),
    ]
    await service.call('update_aeo_query', { query_id: queries[0], service: 'Drain cleaning' }, key)
    await service.call('update_aeo_query', { query_id: queries[1], service: 'Water heaters' }, key)
    for (const month of MONTHS) {
      await inParallel(capturesPerMonth, 2, (n) =>
        service.call<number>(
          'ingest_aeo_capture',
          {
            client_id: clientId,
            query_id: queries[n % 2],
            engine: (['claude', 'openai', 'gemini'] as const)[n % 3],
            month,
            ...answer(name, n + MONTHS.indexOf(month)),
          },
          key,
        ),
      )
    }
    await service.call('file_aeo_report', { client_id: clientId, month: LATEST }, key)
    return clientId
  })
}

/**
 * `get_aeo_summary` (rates with Wilson intervals per service and engine against the previous month, share
 * of voice, open items, queue, cadence) round-robin over clients with twelve months of captures ingested
 * through the real analysis, at 64 connections, against a bare fastify hello-world in the same run. Seeding through ingest_aeo_capture costs far more than a measurement, so the data set is seeded once
 * and every repetition measures the same service.
 */
const readAeoSummary: Scenario = {
  name: 'read-rpc-get-aeo-summary',
  description:
    'get_aeo_summary over HTTP, 64 connections, clients with twelve months of captures, and the ratio to a bare fastify hello-world',
  async run(context) {
    return (await this.runRepeated!(context, 1))[0]!
  },
  async runRepeated(context, repeat) {
    const service = await startService(context)
    try {
      const clients = context.quick ? 4 : 20
      const perMonth = context.quick ? 6 : 20
      const started = Date.now()
      const clientIds = await seed(service, clients, perMonth)
      context.log(
        `read-rpc-get-aeo-summary: seeded ${clients} clients × ${perMonth * MONTHS.length} captures (${MONTHS.length} months) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
      const bodies = clientIds.map((id) => JSON.stringify({ client_id: id }))
      const load = { connections: 64, seconds: context.quick ? 1 : 10, headers: rpcHeaders(service.orgKey), bodies }
      const oneSummary = await service.call('get_aeo_summary', { client_id: clientIds[0] }, service.orgKey)
      context.log(`read-rpc-get-aeo-summary: one answer is ${JSON.stringify({ result: oneSummary }).length} bytes of JSON`)
      const runs: Figure[][] = []
      for (let i = 1; i <= repeat; i++) {
        context.log(`read-rpc-get-aeo-summary: run ${i} of ${repeat}`)
        const { result: rpc, cpu } = await measureWithCpu(
          context,
          'read-rpc-get-aeo-summary',
          { ...load, url: `${service.origin}/api/v1/rpc/get_aeo_summary` },
          service.database.url,
        )
        // A bare fastify hello-world loaded the same way right after, as read-rpc-get-client does.
        const hello = await measureServer(context, 'bare fastify', await startBareFastify(), load)
        const constant = await measureServer(context, 'fastify answering a constant summary', await startConstantAnswer(oneSummary), load)
        runs.push([
          { metric: 'requests/s', value: rpc.requestsPerSecond, unit: 'req/s', better: 'higher' },
          { metric: 'p50', value: rpc.p50, unit: 'ms', better: 'lower' },
          { metric: 'p99', value: rpc.p99, unit: 'ms', target: { op: '<=', value: 20 }, better: 'lower' },
          { metric: 'bare fastify requests/s', value: hello.requestsPerSecond, unit: 'req/s', better: 'higher' },
          {
            metric: 'ratio to bare fastify',
            value: rpc.requestsPerSecond / hello.requestsPerSecond,
            unit: 'x',
            target: { op: '>=', value: 0.4 },
            better: 'higher',
          },
          { metric: 'fastify constant summary requests/s', value: constant.requestsPerSecond, unit: 'req/s', better: 'higher' },
          {
            metric: 'constant summary ratio to bare fastify',
            value: constant.requestsPerSecond / hello.requestsPerSecond,
            unit: 'x',
            better: 'higher',
          },
          ...cpu,
          {
            metric: 'non-2xx or failed',
            value: rpc.non2xx + rpc.errors,
            unit: 'responses',
            target: { op: '<=', value: 0 },
            better: 'lower',
          },
        ])
      }
      return runs
    } finally {
      await service.close()
    }
  },
}

export const aeoSummaryScenarios: readonly Scenario[] = [readAeoSummary]
