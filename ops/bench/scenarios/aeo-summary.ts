import type { BenchContext, Figure, Scenario } from '../types.js'
import { runLoad, type LoadOptions, type LoadResult } from './support/load.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

const WARM_UP_SECONDS = 1
const MONTHS = ['2026-01', '2026-02'] as const

async function measure(context: BenchContext, label: string, options: LoadOptions): Promise<LoadResult> {
  await runLoad({ ...options, seconds: WARM_UP_SECONDS })
  const result = await runLoad(options)
  context.log(
    `${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
      `${result.non2xx} non-2xx, ${result.errors} errors`,
  )
  return result
}

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

/** Clients with services, a question per service, and captures over two months through ingest_aeo_capture. */
async function seed(service: RunningService, clients: number, capturesPerMonth: number): Promise<number[]> {
  const key = service.orgKey
  return inParallel(clients, 4, async (i) => {
    const name = `Summit Plumbing ${i + 1}`
    const clientId = await service.call<number>(
      'add_client',
      { client: { name, website_url: `https://summit-${i + 1}.example.com`, services: ['Drain cleaning', 'Water heaters'], locations: ['Austin, TX'] } },
      key,
    )
    const queries = [
      await service.call<number>('add_aeo_query', { client_id: clientId, prompt: `best drain cleaning company in Austin ${i}` }, key),
      await service.call<number>('add_aeo_query', { client_id: clientId, prompt: `who should I hire for water heater repair in Austin ${i}` }, key),
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
            ...answer(name, n + (month === '2026-02' ? 1 : 0)),
          },
          key,
        ),
      )
    }
    await service.call('file_aeo_report', { client_id: clientId, month: '2026-02' }, key)
    return clientId
  })
}

/**
 * `get_aeo_summary` (rates with Wilson intervals per service and engine against the previous month, share
 * of voice, open items, queue, cadence: seven read-model queries) round-robin over clients with two months
 * of captures ingested through the real analysis.
 */
const readAeoSummary: Scenario = {
  name: 'read-rpc-get-aeo-summary',
  description: 'get_aeo_summary over HTTP, 32 connections, clients with two months of captures',
  async run(context) {
    const service = await startService(context)
    try {
      const clients = context.quick ? 4 : 20
      const perMonth = context.quick ? 30 : 120
      const started = Date.now()
      const clientIds = await seed(service, clients, perMonth)
      context.log(`read-rpc-get-aeo-summary: seeded ${clients} clients × ${perMonth * MONTHS.length} captures in ${((Date.now() - started) / 1000).toFixed(1)} s`)
      const bodies = clientIds.map((id) => JSON.stringify({ client_id: id }))
      const result = await measure(context, 'read-rpc-get-aeo-summary', {
        url: `${service.origin}/api/v1/rpc/get_aeo_summary`,
        connections: 32,
        seconds: context.quick ? 3 : 10,
        headers: rpcHeaders(service.orgKey),
        bodies,
      })
      return [
        { metric: 'requests/s', value: result.requestsPerSecond, unit: 'req/s', better: 'higher' },
        { metric: 'p50', value: result.p50, unit: 'ms', better: 'lower' },
        { metric: 'p99', value: result.p99, unit: 'ms', better: 'lower' },
        { metric: 'non-2xx or failed', value: result.non2xx + result.errors, unit: 'responses', target: { op: '<=', value: 0 }, better: 'lower' },
      ] satisfies Figure[]
    } finally {
      await service.close()
    }
  },
}

export const aeoSummaryScenarios: readonly Scenario[] = [readAeoSummary]
