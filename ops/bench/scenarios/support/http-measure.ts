import fs from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import type { BenchContext, BenchDatabase, Figure } from '../../types.js'
import { runLoad, type LoadOptions, type LoadResult } from './load.js'

/** A short unmeasured run first, so the measured one sees JIT-compiled code and warm connections and caches. */
const WARM_UP_SECONDS = 1

export interface MeasuredLoad extends LoadResult {
  /** CPU of this Node process (the service and the load generator's thread) per 2xx response, µs. */
  readonly nodeCpuPerRequest: number
  /** CPU of the PostgreSQL server per 2xx response, µs (NaN when not measured). */
  readonly postgresCpuPerRequest: number
}

/** Clock ticks to µs (Linux's USER_HZ is 100 on every architecture the bench runs on). */
const TICK_MICROS = 10_000

/** A /proc/<pid>/stat's fields after the command name (which may hold spaces): [0] is field 3 (state). */
async function statFields(pid: number | string): Promise<string[] | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')
}

/**
 * CPU used so far by the PostgreSQL server the database lives on, µs (Linux; undefined elsewhere): its
 * postmaster's live children (backends, background workers) plus, in the postmaster's cutime and cstime,
 * every child that has exited, so a backend that closes during a run still counts. It includes the server's
 * other databases; nothing else runs on the bench's server while a scenario measures.
 */
async function serverCpu(database: BenchDatabase): Promise<number | undefined> {
  const { rows } = await database.pool.query<{ pid: number }>('select pg_backend_pid() as pid')
  const backend = await statFields(rows[0]!.pid)
  const postmaster = backend?.[1]
  const own = postmaster ? await statFields(postmaster) : undefined
  if (!own) return undefined
  // utime, stime, cutime, cstime are fields 14-17.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const fields = await statFields(entry)
    if (fields && fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks * TICK_MICROS
}

/**
 * A warm-up run, then the measured one, with the CPU spent per response in Node and (given the service's
 * database) in PostgreSQL: absolute rates swing 2-3× on a shared machine, CPU per request much less.
 */
export async function measure(context: BenchContext, label: string, options: LoadOptions, database?: BenchDatabase): Promise<MeasuredLoad> {
  await runLoad({ ...options, seconds: WARM_UP_SECONDS })
  const pgBefore = database ? await serverCpu(database) : undefined
  const nodeBefore = process.cpuUsage()
  const result = await runLoad(options)
  const node = process.cpuUsage(nodeBefore)
  const pgAfter = database ? await serverCpu(database) : undefined
  const ok = Math.max(result.ok, 1)
  const measured: MeasuredLoad = {
    ...result,
    nodeCpuPerRequest: (node.user + node.system) / ok,
    postgresCpuPerRequest: pgBefore !== undefined && pgAfter !== undefined ? (pgAfter - pgBefore) / ok : Number.NaN,
  }
  context.log(
    `${label}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ` +
      `${result.non2xx} non-2xx, ${result.errors} errors; CPU per request: node ${Math.round(measured.nodeCpuPerRequest)} µs` +
      (database ? `, postgres ${Math.round(measured.postgresCpuPerRequest)} µs` : ''),
  )
  return measured
}

/** The floor of any fastify route: one POST route answering `{result: 1}`, no hooks, no logger. */
async function startBareFastify(): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify()
  app.post('/hello', async () => ({ result: 1 }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/hello`, close: () => app.close() }
}

/**
 * A read RPC's figures against issue 3's row (p99 ≤ 20 ms, ≥ 40% of a bare fastify hello-world): the bare
 * fastify is loaded right after the RPC, the same way (connections, seconds, headers, bodies), in the same run.
 */
export async function readRpcFigures(context: BenchContext, rpc: MeasuredLoad, load: Omit<LoadOptions, 'url'>): Promise<Figure[]> {
  const bare = await startBareFastify()
  let hello: LoadResult
  try {
    hello = await measure(context, 'bare fastify', { ...load, url: bare.url })
  } finally {
    await bare.close()
  }
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
    { metric: 'node CPU per request', value: rpc.nodeCpuPerRequest, unit: 'µs', better: 'lower' },
    { metric: 'postgres CPU per request', value: rpc.postgresCpuPerRequest, unit: 'µs', better: 'lower' },
    { metric: 'non-2xx or failed', value: rpc.non2xx + rpc.errors, unit: 'responses', target: { op: '<=', value: 0 }, better: 'lower' },
  ]
}
