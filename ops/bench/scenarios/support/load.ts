import autocannon from 'autocannon'
import { percentile } from '../../stats.js'

export interface LoadOptions {
  /** Full URL on 127.0.0.1. */
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly headers: Record<string, string>
  /** The body of the n-th request (0-based, across all connections); called once per request. */
  readonly body: (n: number) => string
  /** Response headers whose values are counted (lower-case names), e.g. `x-read-your-writes`. */
  readonly countHeaders?: readonly string[]
}

export interface LoadResult {
  /** Responses received (any status). */
  readonly responses: number
  readonly seconds: number
  /** 2xx responses per second over the run. */
  readonly requestsPerSecond: number
  /** Latency of 2xx responses, ms (fractional, from autocannon's hrtime per request). */
  readonly p50: number
  readonly p99: number
  readonly ok: number
  readonly non2xx: number
  /** Socket errors and timeouts. */
  readonly errors: number
  /** Per counted header: value → responses carrying it. */
  readonly headerValues: ReadonlyMap<string, ReadonlyMap<string, number>>
}

/**
 * Loads one POST endpoint with autocannon, in this process, for a fixed time with a fixed number of
 * connections (closed loop: each connection sends its next request when the previous one answered).
 * Latency percentiles are computed from every 2xx response's exact time, not autocannon's 1 ms histogram.
 */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  const samples: number[] = []
  const counted = new Map<string, Map<string, number>>((options.countHeaders ?? []).map((name) => [name, new Map()]))
  let n = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            headers: options.headers,
            setupRequest: (request) => ({ ...request, body: options.body(n++) }),
            ...(counted.size > 0
              ? {
                  onResponse: (_status: number, _body: string, _context: object, headers: Record<string, string | string[] | undefined> | undefined) => {
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
        if (error) return reject(error)
        const ok = result['2xx']
        const seconds = result.duration
        resolve({
          responses: ok + result.non2xx,
          seconds,
          requestsPerSecond: ok / seconds,
          p50: percentile(samples, 50),
          p99: percentile(samples, 99),
          ok,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          headerValues: counted,
        })
      },
    )
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime)
    })
  })
}
