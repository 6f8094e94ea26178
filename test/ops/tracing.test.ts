/**
 * OpenTelemetry traces when OTEL_EXPORTER_OTLP_ENDPOINT is set, and nothing at all (no SDK
 * loaded, no hook installed) when it is not. The collector is a stand-in on 127.0.0.1 that receives what the
 * real OTLP/HTTP exporter sends (JSON), so the spans are checked as a collector would see them.
 */
import { spawnSync } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { startTracing } from '../../ops/tracing.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, orgWithKey } from './../http/helpers.js'

interface OtlpValue {
  stringValue?: string
  intValue?: number | string
  boolValue?: boolean
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  attributes: { key: string; value: OtlpValue }[]
  status?: { code?: number }
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[]
}

/** An OTLP/HTTP collector stand-in: records every export POSTed to /v1/traces. */
async function startCollector(t: { teardown(fn: () => unknown): void }) {
  const exports: OtlpExport[] = []
  const contentTypes: string[] = []
  const server = http.createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        contentTypes.push(String(request.headers['content-type']))
        exports.push(JSON.parse(body) as OtlpExport)
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const spans = () =>
    exports.flatMap((e) =>
      e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ span, resource: r.resource })))),
    )
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, contentTypes }
}

const attribute = (span: OtlpSpan | { attributes: OtlpSpan['attributes'] }, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  if (!value) return undefined
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue)
}

t.test('with an endpoint: each request is a server span, continuing the caller’s trace, sent to the collector', async (t) => {
  const collector = await startCollector(t)
  const tracing = await startTracing({ endpoint: collector.url })
  if (!tracing) return void t.fail('tracing did not start')
  t.teardown(() => tracing.shutdown())
  const ts = await startTestSystem(t, { tracing: true })
  const org = await orgWithKey(ts, 'Traced')

  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
  const parentSpanId = '00f067aa0ba902b7'
  const response = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/add_client',
    headers: {
      authorization: `Bearer ${org.key}`,
      'content-type': 'application/json',
      traceparent: `00-${traceId}-${parentSpanId}-01`,
      'x-request-id': 'trace-test-1',
    },
    payload: JSON.stringify(clientPayload('Traced client')),
  })
  t.equal(response.statusCode, 200)
  const health = await ts.app.inject({ method: 'GET', url: '/api/v1/health', headers: { 'x-request-id': 'trace-test-2' } })
  t.equal(health.statusCode, 200)
  await tracing.forceFlush()

  t.ok(
    collector.contentTypes.every((c) => c.startsWith('application/json')),
    'OTLP/HTTP JSON',
  )
  const found = collector.spans().find(({ span }) => attribute(span, 'rankrelay.request_id') === 'trace-test-1')
  if (!found)
    return void t.fail(
      `no span for the request (got ${collector
        .spans()
        .map(({ span }) => span.name)
        .join(', ')})`,
    )
  const { span, resource } = found
  t.equal(attribute(resource, 'service.name'), 'rankrelay', 'the service names itself')
  t.equal(span.name, 'POST /api/v1/rpc/add_client', 'named by method and route')
  t.equal(span.kind, 2, 'a SERVER span')
  t.equal(span.traceId, traceId, 'continues the trace of the traceparent header')
  t.equal(span.parentSpanId, parentSpanId, 'as a child of the caller’s span')
  t.equal(attribute(span, 'http.request.method'), 'POST')
  t.equal(attribute(span, 'http.route'), '/api/v1/rpc/add_client')
  t.equal(attribute(span, 'url.path'), '/api/v1/rpc/add_client')
  t.equal(attribute(span, 'http.response.status_code'), 200)
  t.equal(attribute(span, 'rankrelay.rpc.method'), 'add_client')
  t.equal(attribute(span, 'rankrelay.org_id'), org.orgId)
  t.equal(attribute(span, 'rankrelay.key_id'), org.keyId)
  t.notOk(
    span.attributes.some((a) => /authorization|rrk_/i.test(`${a.key}=${a.value.stringValue ?? ''}`)),
    'no credential in any attribute',
  )

  const root = collector.spans().find(({ span }) => attribute(span, 'rankrelay.request_id') === 'trace-test-2')?.span
  t.equal(root?.name, 'GET /api/v1/health')
  t.notOk(root?.parentSpanId, 'without traceparent a request starts its own trace')
  t.not(root?.traceId, traceId)
})

t.test('without an endpoint: tracing is off and its SDK is never loaded', async (t) => {
  t.equal(await startTracing({ endpoint: undefined }), null, 'startTracing answers null')
  // In a fresh process: every module the service loads at start (the CLI's whole static graph, the app)
  // plus startTracing without an endpoint; an import of the SDK or the exporter fails the process.
  const script = (endpoint: string | undefined) => `
    import { register } from 'node:module'
    register('data:text/javascript,' + encodeURIComponent(
      "export async function resolve(s, c, next) { if (/@opentelemetry\\\\/(sdk-|exporter-|resources)/.test(s)) throw new Error('loaded ' + s); return next(s, c) }"))
    const { startTracing } = await import('./ops/tracing.ts')
    await import('./ops/commands/serve.ts')
    await import('./read-api/app.ts')
    const tracing = await startTracing({ endpoint: ${JSON.stringify(endpoint)} })
    console.log(JSON.stringify({ off: tracing === null }))
  `
  const run = (endpoint: string | undefined) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(endpoint)], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    })
  const off = run(undefined)
  t.equal(off.status, 0, `the process ends well (stderr: ${off.stderr.slice(0, 400)})`)
  t.same(JSON.parse(off.stdout.trim().split('\n').at(-1) ?? '{}'), { off: true })
  // The check itself works: with an endpoint the same process does load the SDK, and the hook stops it.
  const on = run('http://127.0.0.1:9')
  t.not(on.status, 0, 'with an endpoint the SDK is imported')
  t.match(on.stderr, /loaded @opentelemetry\/(sdk-|exporter-|resources)/)
})
