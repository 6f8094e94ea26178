import type { BenchContext, Figure, Scenario } from '../types.js'
import { measure, readRpcFigures } from './support/http-measure.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

/** Clients of the service's organization, as an agency has them: a few services, locations and settings each. */
async function addClients(service: RunningService, count: number): Promise<number[]> {
  return inParallel(count, 8, (i) =>
    service.call<number>(
      'add_client',
      {
        client: {
          name: `Bench Client ${i + 1}`,
          website_url: `https://client-${i + 1}.example.com`,
          slug: `client-${i + 1}`,
          services: ['Drain cleaning', 'Water heaters', { name: 'Emergency plumbing', description: '24/7 call-outs' }],
          locations: ['Austin, TX', { city: 'Dallas', state: 'TX', country: 'US' }],
          settings: { tier: 'gold', attention_flag: '' },
        },
      },
      service.orgKey,
    ),
  )
}

const seconds = (context: BenchContext) => (context.quick ? 3 : 10)

/**
 * `set_client_setting` with a value that changes on every request, round-robin over pre-created clients:
 * the commonest agent write, and the plain write path (read the client's stream, decide, one append, wait
 * for the projections) without the slug reservation that add_client adds. Each request really appends one
 * event (a repeated value would be a no-op answered without waiting).
 */
const writeRpc: Scenario = {
  name: 'write-rpc',
  description: 'set_client_setting over HTTP with read-your-writes, 16 connections',
  async run(context) {
    const service = await startService(context)
    try {
      const clientIds = await addClients(service, 256)
      // `{{n}}` is unique per request across the warm-up and the measured run, so no request repeats an
      // earlier value (a no-op).
      const bodies = clientIds.map((id) => JSON.stringify({ client_id: id, key: 'last_contact', value: 'call {{n}}' }))
      const result = await measure(context, 'write-rpc', {
        url: `${service.origin}/api/v1/rpc/set_client_setting`,
        connections: 16,
        seconds: seconds(context),
        headers: rpcHeaders(service.orgKey),
        bodies,
        countHeaders: ['x-read-your-writes'],
      })
      // Every response is counted by the value of its header ('(absent)' when it has none).
      const header = result.headerValues.get('x-read-your-writes') ?? new Map<string, number>()
      context.log(`write-rpc: x-read-your-writes ${JSON.stringify(Object.fromEntries(header))}`)
      const counted = [...header.values()].reduce((sum, n) => sum + n, 0)
      const reached = header.get('reached') ?? 0
      return [
        { metric: 'requests/s', value: result.requestsPerSecond, unit: 'req/s', better: 'higher' },
        { metric: 'p50', value: result.p50, unit: 'ms', better: 'lower' },
        { metric: 'p99', value: result.p99, unit: 'ms', target: { op: '<=', value: 25 }, better: 'lower' },
        {
          metric: 'read-your-writes reached',
          value: counted === 0 ? 0 : (100 * reached) / counted,
          unit: '% of responses',
          target: { op: '>=', value: 100 },
          better: 'higher',
        },
        { metric: 'non-2xx or failed', value: result.non2xx + result.errors, unit: 'responses', target: { op: '<=', value: 0 }, better: 'lower' },
      ] satisfies Figure[]
    } finally {
      await service.close()
    }
  },
}

/**
 * `get_client` (client row, services, locations; the key checked on every request) round-robin over
 * pre-created clients, against a bare fastify hello-world loaded the same way in the same run.
 */
const readRpcGetClient: Scenario = {
  name: 'read-rpc-get-client',
  description: 'get_client over HTTP, 64 connections, and the ratio to a bare fastify hello-world',
  async run(context) {
    const service = await startService(context)
    try {
      const clientIds = await addClients(service, 256)
      const bodies = clientIds.map((id) => JSON.stringify({ client_id: id }))
      const load = { connections: 64, seconds: seconds(context), headers: rpcHeaders(service.orgKey), bodies }
      const rpc = await measure(context, 'read-rpc-get-client', { ...load, url: `${service.origin}/api/v1/rpc/get_client` }, service.database)
      return await readRpcFigures(context, rpc, load)
    } finally {
      await service.close()
    }
  },
}

export const httpScenarios: readonly Scenario[] = [writeRpc, readRpcGetClient]
