import { nextMessage, startThread } from './thread.js'
import { percentile } from '../../stats.js'

export interface LoadOptions {
  /** Full URL on 127.0.0.1. */
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly headers: Record<string, string>
  /**
   * Request bodies, sent round-robin (the n-th request, 0-based across all connections, gets
   * `bodies[n % bodies.length]`). Every `{{n}}` in a body is replaced by a value unique to that request
   * across all runs of this process, for writes that must change something each time. Plain strings, not a
   * function, because the load generator runs in a thread of its own.
   */
  readonly bodies: readonly string[]
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

/** What the worker thread is given (plain data: it crosses the thread boundary). */
export interface LoadWork {
  readonly url: string
  readonly connections: number
  readonly seconds: number
  readonly headers: Record<string, string>
  readonly bodies: readonly string[]
  readonly countHeaders: readonly string[]
  /** Distinguishes this run's `{{n}}` values from every other run's. */
  readonly tag: number
}

/** What the worker thread posts back: every 2xx latency (ms) and the counts. */
export interface LoadReport {
  readonly samples: Float64Array
  readonly ok: number
  readonly non2xx: number
  readonly errors: number
  readonly seconds: number
  readonly headerValues: readonly (readonly [string, readonly (readonly [string, number])[]])[]
}

let runs = 0

/**
 * Loads one POST endpoint with autocannon for a fixed time with a fixed number of connections (closed loop:
 * each connection sends its next request when the previous one answered). autocannon runs in a worker
 * thread (./load-worker.ts, started by ./thread.ts), so its JavaScript has its own event loop and does not
 * queue with the service's requests on this one, as a real client would not. Latency percentiles are computed from every 2xx
 * response's exact time, not autocannon's 1 ms histogram.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const work: LoadWork = {
    url: options.url,
    connections: options.connections,
    seconds: options.seconds,
    headers: options.headers,
    bodies: options.bodies,
    countHeaders: options.countHeaders ?? [],
    tag: ++runs,
  }
  const worker = startThread(new URL('./load-worker.ts', import.meta.url), work)
  try {
    const message = await nextMessage<LoadReport | { error: string }>(worker)
    if ('error' in message) throw new Error(`load generator: ${message.error}`)
    const samples = Array.from(message.samples)
    return {
      responses: message.ok + message.non2xx,
      seconds: message.seconds,
      requestsPerSecond: message.ok / message.seconds,
      p50: percentile(samples, 50),
      p99: percentile(samples, 99),
      ok: message.ok,
      non2xx: message.non2xx,
      errors: message.errors,
      headerValues: new Map(message.headerValues.map(([name, values]) => [name, new Map(values)])),
    }
  } finally {
    void worker.terminate()
  }
}
