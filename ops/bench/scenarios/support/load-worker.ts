/**
 * The load generator's thread: runs autocannon here, not on the service's event loop, so that the measured
 * requests (and the bare-fastify baseline) do not also pay for building, sending and timing the requests.
 * Started by `runLoad` (./load.ts) with the plain-data part of its options; posts back one `LoadReport`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import autocannon from 'autocannon'
import type { LoadReport, LoadWork } from './load.js'

const work = workerData as LoadWork
const samples: number[] = []
const counted = new Map<string, Map<string, number>>(work.countHeaders.map((name) => [name, new Map()]))
let n = 0

/** The n-th body: round-robin over the given ones, `{{n}}` made unique across runs by the run's tag. */
const body = (i: number): string => {
  const template = work.bodies[i % work.bodies.length]!
  return template.includes('{{n}}') ? template.replaceAll('{{n}}', `${work.tag}.${i}`) : template
}

const instance = autocannon(
  {
    url: work.url,
    connections: work.connections,
    duration: work.seconds,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        headers: work.headers,
        setupRequest: (request) => ({ ...request, body: body(n++) }),
        ...(counted.size > 0
          ? {
              onResponse: (
                _status: number,
                _body: string,
                _context: object,
                headers: Record<string, string | string[] | undefined> | undefined,
              ) => {
                const lower = new Map(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]))
                for (const [name, values] of counted) {
                  const value = lower.get(name) ?? '(absent)'
                  values.set(value, (values.get(value) ?? 0) + 1)
                }
              },
            }
          : {}),
      },
    ],
  },
  (error, result) => {
    if (error) {
      parentPort!.postMessage({ error: String(error.stack ?? error) })
      return
    }
    const latencies = Float64Array.from(samples)
    const report: LoadReport = {
      samples: latencies,
      ok: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      seconds: result.duration,
      headerValues: [...counted].map(([name, values]) => [name, [...values]]),
    }
    parentPort!.postMessage(report, [latencies.buffer])
  },
)
instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
  if (statusCode >= 200 && statusCode < 300) samples.push(responseTime)
})
