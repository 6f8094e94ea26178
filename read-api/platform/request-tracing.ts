import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { RpcRegistry } from '../registry.js'
import { API_VERSION } from '../version.js'
import { routeLabel } from './route-label.js'

/**
 * One SERVER span per HTTP request, through the OpenTelemetry API, installed only when ops/tracing.ts has
 * registered an SDK (OTEL_EXPORTER_OTLP_ENDPOINT), so a service without tracing pays nothing per request.
 * The span continues the caller's trace (W3C traceparent), is named `<METHOD> <route>` (the metrics' route
 * label: bounded), and carries the HTTP semantic-convention attributes plus the request id, the RPC method,
 * the organization and the key, taken from the request's log bindings (read-api/platform/log-context.ts:
 * one place decides what a request is about). Credentials never become attributes.
 */
export function installRequestTracing(app: FastifyInstance, registry: RpcRegistry): void {
  const tracer = trace.getTracer('rankrelay', API_VERSION)
  const spans = new WeakMap<FastifyRequest, { span: Span; context: Context }>()

  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(context.active(), request.headers)
    const span = tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': request.url.split('?')[0]!,
          'url.scheme': request.protocol,
          'rankrelay.request_id': request.id,
        },
      },
      parent,
    )
    const active = trace.setSpan(parent, span)
    spans.set(request, { span, context: active })
    context.with(active, done)
  })
  // A body is parsed on the socket's own callbacks, outside the context entered above: enter it again, so
  // the handler (and any span a library starts in it) runs inside the request's span.
  app.addHook('preHandler', (request, _reply, done) => {
    const entry = spans.get(request)
    if (entry) context.with(entry.context, done)
    else done()
  })
  app.addHook('onError', (request, _reply, error, done) => {
    spans.get(request)?.span.recordException(error)
    done()
  })
  app.addHook('onResponse', (request, reply, done) => {
    const entry = spans.get(request)
    if (entry) {
      const route = routeLabel(request, registry)
      entry.span.updateName(`${request.method} ${route}`)
      entry.span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode, ...requestFacts(request) })
      // Semantic conventions: a server span is an error for 5xx only (a 4xx is the client's).
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR })
      entry.span.end()
      spans.delete(request)
    }
    done()
  })
}

/** The log bindings that say what the request was about, as span attributes. */
function requestFacts(request: FastifyRequest): Record<string, string | number> {
  const bindings = (request.log as unknown as { bindings?: () => Record<string, unknown> }).bindings?.() ?? {}
  const facts: Record<string, string | number> = {}
  for (const [field, attribute] of [
    ['rpc', 'rankrelay.rpc.method'],
    ['org_id', 'rankrelay.org_id'],
    ['key_id', 'rankrelay.key_id'],
    ['oauth_grant_id', 'rankrelay.oauth_grant_id'],
    ['user_id', 'rankrelay.user_id'],
  ] as const) {
    const value = bindings[field]
    if (typeof value === 'string' || typeof value === 'number') facts[attribute] = value
  }
  return facts
}
