import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import type { BenchContext, Figure, Scenario } from '../types.js'
import { openCpuWindow } from './support/cpu.js'
import { startFastifyWithRead } from './support/fastify-read.js'
import { runLoad, type LoadOptions, type LoadResult } from './support/load.js'
import { inParallel, rpcHeaders, startService, type RunningService } from './support/service.js'

/** A short unmeasured run first, so the measured one sees JIT-compiled code and warm connections and caches. */
const WARM_UP_SECONDS = 1

export async function measure(context: BenchContext, label: string, options: LoadOptions): Promise<LoadResult> {
  return (await measureWithCpu(context, label, options, null)).result
}

/** measure(), plus the CPU the service's main thread and PostgreSQL spent per request in the measured run. */
export async function measureWithCpu(
  context: BenchContext,
  label: string,
  options: LoadOptions,
  serverUrl: string | null,
): Promise<{ result: LoadResult; cpu: Figure[] }> {
  await runLoad({ ...options, seconds: WARM_UP_SECONDS })
  const window = serverUrl === null ? null : await openCpuWindow(serverUrl)
  const result = await runLoad(options)
  const used = await window?.stop()
  // Every response the window saw, errors included, each cost the service something.
  const requests = result.responses
  const perRequest = (ms: number | null | undefined) => (ms === null || ms === undefined || requests === 0 ? null : ms / requests)
  const cpu: Figure[] = []
  const node = perRequest(used?.nodeMs)
  const postgres = perRequest(used?.postgresMs)
  if (node !== null) cpu.push({ metric: 'service main-thread CPU per request', value: node, unit: 'ms', better: 'lower' })
  if (postgres !== null) cpu.push({ metric: 'PostgreSQL CPU per request', value: postgres, unit: 'ms', better: 'lower' })
  context.log(
    `${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
      `${result.non2xx} non-2xx, ${result.errors} errors` +
      (node === null ? '' : `; CPU per request: service ${node.toFixed(3)} ms, PostgreSQL ${postgres?.toFixed(3) ?? '?'} ms`),
  )
  return { result, cpu }
}

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

const seconds = (context: BenchContext) => (context.quick ? 1 : 10)

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
      const { result, cpu } = await measureWithCpu(
        context,
        'write-rpc',
        {
          url: `${service.origin}/api/v1/rpc/set_client_setting`,
          connections: 16,
          seconds: seconds(context),
          headers: rpcHeaders(service.orgKey),
          bodies,
          countHeaders: ['x-read-your-writes'],
        },
        service.database.url,
      )
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
        {
          metric: 'non-2xx or failed',
          value: result.non2xx + result.errors,
          unit: 'responses',
          target: { op: '<=', value: 0 },
          better: 'lower',
        },
        ...cpu,
      ] satisfies Figure[]
    } finally {
      await service.close()
    }
  },
}

/** Loads a comparison server (started by the caller) the way the RPC was loaded, then closes it. */
export async function measureServer(
  context: BenchContext,
  label: string,
  server: { url: string; close(): Promise<void> },
  load: Omit<LoadOptions, 'url'>,
): Promise<LoadResult> {
  try {
    return await measure(context, label, { ...load, url: server.url })
  } finally {
    await server.close()
  }
}

/** The floor of any fastify route: one POST route answering `{result: 1}`, no hooks, no logger. */
export async function startBareFastify(): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify()
  app.post('/hello', async () => ({ result: 1 }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hello`, close: () => app.close() }
}

/**
 * The floor of answering a read's body over HTTP: a bare fastify route answering one real answer of an RPC,
 * a constant serialised again per request as the service's route does. It shows what the body's size alone
 * costs (serialising, writing several KB to the socket) next to the hello-world's few bytes.
 */
export async function startConstantAnswer(answer: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify()
  app.post('/answer', async () => ({ result: answer }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/answer`, close: () => app.close() }
}

/**
 * `get_client` (client row, services, locations; the key checked on every request) round-robin over
 * pre-created clients, against a bare fastify hello-world and a fastify route making one PostgreSQL read
 * (support/fastify-read.ts), each loaded the same way in the same run.
 */
const readRpcGetClient: Scenario = {
  name: 'read-rpc-get-client',
  description: 'get_client over HTTP, 64 connections, and the ratio to a bare fastify hello-world and to fastify with one PostgreSQL read',
  async run(context) {
    const service = await startService(context)
    try {
      const clientIds = await addClients(service, 256)
      const bodies = clientIds.map((id) => JSON.stringify({ client_id: id }))
      const load = { connections: 64, seconds: seconds(context), headers: rpcHeaders(service.orgKey), bodies }
      const { result: rpc, cpu } = await measureWithCpu(
        context,
        'read-rpc-get-client',
        { ...load, url: `${service.origin}/api/v1/rpc/get_client` },
        service.database.url,
      )
      const hello = await measureServer(context, 'bare fastify', await startBareFastify(), load)
      const oneRead = await measureServer(context, 'fastify + one PostgreSQL read', await startFastifyWithRead(service.database.url), load)
      return [
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
        // The same ratio for the plainest route that reads PostgreSQL once: the floor the 0.40 target is set against.
        { metric: 'fastify + one read requests/s', value: oneRead.requestsPerSecond, unit: 'req/s', better: 'higher' },
        { metric: 'fastify + one read p99', value: oneRead.p99, unit: 'ms', better: 'lower' },
        {
          metric: 'fastify + one read, ratio to bare',
          value: oneRead.requestsPerSecond / hello.requestsPerSecond,
          unit: 'x',
          better: 'higher',
        },
        { metric: 'non-2xx or failed', value: rpc.non2xx + rpc.errors, unit: 'responses', target: { op: '<=', value: 0 }, better: 'lower' },
        ...cpu,
      ] satisfies Figure[]
    } finally {
      await service.close()
    }
  },
}

export const httpScenarios: readonly Scenario[] = [writeRpc, readRpcGetClient]
