import type { Logger } from 'pino'
import { API_VERSION } from '../read-api/version.js'

/** A running tracer: flush (tests, before exit) and shut down (flushes too). */
export interface Tracing {
  forceFlush(): Promise<void>
  shutdown(): Promise<void>
}

/**
 * OpenTelemetry traces, on when OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK (loaded here and only here, by
 * dynamic import, so a service without an endpoint never loads it) becomes the global tracer provider, with
 * the AsyncLocalStorage context manager and the W3C trace-context propagator, and batches spans to
 * `<endpoint>/v1/traces` over OTLP/HTTP (JSON). The app's request spans come from
 * read-api/platform/request-tracing.ts, installed when this answered non-null. The exporter's other
 * standard variables (OTEL_EXPORTER_OTLP_HEADERS, timeouts) apply.
 * Answers null when there is no endpoint. Never throws for an unreachable collector: spans are then dropped
 * (the exporter logs through the OpenTelemetry diagnostics, not ours).
 */
export async function startTracing(options: { endpoint: string | undefined; log?: Logger }): Promise<Tracing | null> {
  if (!options.endpoint) return null
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ])
  // The generic endpoint variable names the collector; the traces path is appended, as the OTLP spec says.
  const url = `${options.endpoint.replace(/\/+$/, '')}/v1/traces`
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'rankrelay', 'service.version': API_VERSION }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  })
  provider.register()
  options.log?.info({ traces: url }, 'OpenTelemetry tracing on')
  return {
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  }
}
