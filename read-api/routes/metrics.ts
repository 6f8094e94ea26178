import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import ipaddr from 'ipaddr.js'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { z } from 'zod'
import { ApiError } from '../errors.js'
import { ErrorBody } from '../platform/error-body.js'
import { route, type RouteGroup } from '../platform/route.js'
import { routeLabel } from '../platform/route-label.js'
import { JOB_STATUSES, OPEN_DELIVERY_STATUSES, readServiceSnapshot, type ServiceSnapshotDeps } from '../platform/service-snapshot.js'
import type { RpcRegistry } from '../registry.js'

export interface MetricsDeps extends ServiceSnapshotDeps {
  readonly registry: RpcRegistry
}

/** The app's metrics as a scrape reads them: the exposition text, with the series read from the databases now. */
export interface AppMetrics {
  readonly contentType: string
  scrape(request: FastifyRequest): Promise<string>
}

/** Seconds; from a cached read to a write that waits out read-your-writes (5 s by default) and beyond. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/**
 * The process's own metrics (CPU, memory, event-loop delay, GC), registered once per process: they describe
 * the process, not an app, and tests build many apps in one.
 */
let processRegistry: Registry | undefined
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

/**
 * The app's metrics and the root hook that counts every response; GET /metrics (metricsRoute) serves what
 * this returns. Call on the root instance before the routes are registered, so every route (and the 404
 * handler) is counted.
 */
export function installMetrics(app: FastifyInstance, deps: MetricsDeps): AppMetrics {
  const registry = new Registry()
  const labelNames = ['method', 'route', 'status'] as const
  const requests = new Counter({
    name: 'rankrelay_http_requests_total',
    help: 'HTTP responses by method, route (RPC routes name the method) and status.',
    labelNames,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'rankrelay_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its response, by method, route and status.',
    labelNames,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  })
  const lagEvents = new Gauge({
    name: 'rankrelay_projection_lag_events',
    help: 'Events in the log the projection group has not applied yet (absent on EventStoreDB, which cannot count them).',
    labelNames: ['group'],
    registers: [registry],
  })
  const lagSeconds = new Gauge({
    name: 'rankrelay_projection_lag_seconds',
    help: 'Age of the oldest event the projection group has not applied yet; 0 when caught up.',
    labelNames: ['group'],
    registers: [registry],
  })
  // A counter set from the database: its rate() is the event store's append rate across every process.
  const eventsInLog = new Counter({
    name: 'rankrelay_event_store_events_total',
    help: 'Events appended to the log, by all processes (rate() is the append rate).',
    registers: [registry],
  })
  const jobQueue = new Gauge({
    name: 'rankrelay_job_queue_depth',
    help: 'Jobs in the job runner’s work table, by status.',
    labelNames: ['status'],
    registers: [registry],
  })
  const webhookQueue = new Gauge({
    name: 'rankrelay_webhook_queue_depth',
    help: 'Unfinished webhook deliveries, by status.',
    labelNames: ['status'],
    registers: [registry],
  })
  const reachable = new Gauge({
    name: 'rankrelay_database_reachable',
    help: '1 when the scrape could read the databases, 0 when not (the database-derived series are then absent).',
    registers: [registry],
  })
  let countedEvents = 0

  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: routeLabel(request, deps.registry), status: String(reply.statusCode) }
    requests.inc(labels)
    latency.observe(labels, reply.elapsedTime / 1000)
    done()
  })

  return {
    contentType: registry.contentType,
    async scrape(request) {
      try {
        const snapshot = await readServiceSnapshot(deps, new Date())
        for (const p of snapshot.projections) {
          if (p.lagEvents === null) lagEvents.remove({ group: p.group })
          else lagEvents.set({ group: p.group }, p.lagEvents)
          lagSeconds.set({ group: p.group }, p.lagSeconds)
        }
        // Monotonic: a rebuild's fresh checkpoint counts up from zero again, which must not look like a reset.
        if (snapshot.eventsInLog > countedEvents) {
          eventsInLog.inc(snapshot.eventsInLog - countedEvents)
          countedEvents = snapshot.eventsInLog
        }
        for (const status of [...JOB_STATUSES, ...Object.keys(snapshot.jobs)]) jobQueue.set({ status }, snapshot.jobs[status] ?? 0)
        for (const status of [...OPEN_DELIVERY_STATUSES, ...Object.keys(snapshot.webhookDeliveries)])
          webhookQueue.set({ status }, snapshot.webhookDeliveries[status] ?? 0)
        reachable.set(1)
      } catch (error) {
        // Stale numbers would read as healthy ones: drop them and say why (the outage is logged elsewhere).
        request.log.debug({ err: error }, 'metrics: the databases could not be read')
        for (const gauge of [lagEvents, lagSeconds, jobQueue, webhookQueue]) gauge.reset()
        reachable.set(0)
      }
      return (await processMetrics().metrics()) + (await registry.metrics())
    },
  }
}

export interface MetricsRouteDeps {
  readonly metrics: AppMetrics
  /** METRICS_TOKEN: when set, every scrape must bear it; when not, only loopback scrapers are answered. */
  readonly metricsToken?: string | undefined
}

const METRICS_EXAMPLE = `# HELP rankrelay_http_requests_total HTTP responses by method, route (RPC routes name the method) and status.
# TYPE rankrelay_http_requests_total counter
rankrelay_http_requests_total{method="POST",route="/api/v1/rpc/add_client",status="200"} 3
# HELP rankrelay_database_reachable 1 when the scrape could read the databases, 0 when not (the database-derived series are then absent).
# TYPE rankrelay_database_reachable gauge
rankrelay_database_reachable 1
`

/**
 * GET /metrics in the Prometheus text format. Who may scrape: with METRICS_TOKEN set, whoever sends
 * `Authorization: Bearer <token>` (nobody else, loopback included); without it, only a scraper on the same
 * host, connected over loopback and not forwarded by a proxy (a reverse proxy on the host would otherwise make
 * every outside request look local). The numbers are operational, never an organization's data, but they are
 * the operator's. Its bearer token is the operator's own, not an API credential, so the API's security
 * schemes do not apply: the declaration says public and its description says who may scrape.
 */
export const metricsRoute = route<MetricsRouteDeps>({
  method: 'GET',
  path: '/metrics',
  operationId: 'metrics',
  summary: 'Operational metrics (Prometheus text format)',
  description:
    'Requests by method, route and status with latency histograms, projection lag, the job and webhook queues and the event count of the log. With METRICS_TOKEN set, send it as `Authorization: Bearer <METRICS_TOKEN>`; without it, only a scraper on the same host over loopback (not through a proxy) is answered.',
  tag: 'meta',
  auth: 'public',
  responses: {
    200: { description: 'The metrics.', type: 'text/plain', schema: z.string().describe('Prometheus text exposition format 0.0.4') },
    403: { description: 'metrics_forbidden: not the operator’s scraper.', schema: ErrorBody },
  },
  example: { response: { status: 200, body: METRICS_EXAMPLE } },
  handler: async ({ request, reply, deps }) => {
    if (!mayScrape(request, deps.metricsToken)) throw new ApiError('metrics_forbidden')
    const text = await deps.metrics.scrape(request)
    return reply.header('Cache-Control', 'no-store').type(deps.metrics.contentType).send(text)
  },
})

export const metricsRoutes: RouteGroup<MetricsRouteDeps> = { routes: [metricsRoute] }

function mayScrape(request: FastifyRequest, token: string | undefined): boolean {
  if (token !== undefined) {
    const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1]
    // Digests first: timingSafeEqual needs equal lengths, and the token's length is no business of a guesser's.
    return given !== undefined && timingSafeEqual(sha256(given), sha256(token))
  }
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) return false
  return isLoopback(request.socket.remoteAddress)
}

const sha256 = (text: string) => createHash('sha256').update(text).digest()

function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false
  // process() turns ::ffff:127.0.0.1 (an IPv4 peer on a dual-stack socket) into 127.0.0.1.
  return ipaddr.process(address).range() === 'loopback'
}
